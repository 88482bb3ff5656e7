package dbbench

import (
	"bytes"
	"testing"
)

// dbBenchBlock is what db_bench's checksum benchmarks hash: 4096 'x'.
var dbBenchBlock = bytes.Repeat([]byte{'x'}, 4096)

// TestChecksumFunctionsMatchRocksDB checks each benchmark's hash of the
// db_bench block against the value Debian's librocksdb 7.8.3 computes
// (crc32c::Extend(0, ...), ROCKSDB_XXH32, ROCKSDB_XXH64 and
// ROCKSDB_XXH3_64bits called on the same bytes), and CRC-32C against its
// published check value.
func TestChecksumFunctionsMatchRocksDB(t *testing.T) {
	for _, c := range []struct {
		name string
		fn   func([]byte) uint64
		in   []byte
		want uint64
	}{
		{"crc32c", crc32cOf, []byte("123456789"), 0xe3069283},
		{"crc32c", crc32cOf, dbBenchBlock, 0xa46ab21f},
		{"xxhash", xxh32Of, dbBenchBlock, 0xdbc32435},
		{"xxhash64", xxh64Of, dbBenchBlock, 0xc7c0495455a2524f},
		{"xxh3", xxh3Of, dbBenchBlock, 0x854c667088efe093},
		{"xxhash64", xxh64Of, nil, 0xef46db3751d8e999},
		{"xxh3", xxh3Of, nil, 0x2d06800538d394c2},
	} {
		if got := c.fn(c.in); got != c.want {
			t.Errorf("%s of %d bytes = %#x, want %#x", c.name, len(c.in), got, c.want)
		}
	}
}

func TestChecksumFunctionsAllocateNothing(t *testing.T) {
	for name, fn := range map[string]func([]byte) uint64{"crc32c": crc32cOf, "xxhash": xxh32Of, "xxhash64": xxh64Of, "xxh3": xxh3Of} {
		if n := testing.AllocsPerRun(100, func() { fn(dbBenchBlock) }); n != 0 {
			t.Errorf("%s allocates %v times a block", name, n)
		}
	}
}

// TestBlockCodecRoundTrip compresses the block db_bench's compress benchmark
// uses with every linked codec and requires the block back, the varint32
// length header where RocksDB's format version 2 has one, and a smaller
// output for this half-compressible block.
func TestBlockCodecRoundTrip(t *testing.T) {
	block := buildValueData(0.5, 0)[:4096]
	for _, kind := range []string{"snappy", "lz4", "lz4hc", "zstd"} {
		c := newBlockCodec(kind, len(block))
		comp, ok := c.compress(block)
		if !ok {
			t.Fatalf("%s: compress failed", kind)
		}
		if len(comp) >= len(block) {
			t.Errorf("%s: %d bytes compressed to %d", kind, len(block), len(comp))
		}
		if kind != "snappy" && !bytes.HasPrefix(comp, []byte{0x80, 0x20}) {
			t.Errorf("%s: output starts % x, want the varint32 of 4096 (80 20)", kind, comp[:2])
		}
		comp = append([]byte(nil), comp...)
		raw, ok := c.uncompress(comp)
		if !ok || !bytes.Equal(raw, block) {
			t.Errorf("%s: uncompress gave ok=%v and %d bytes, want the block back", kind, ok, len(raw))
		}
		if _, ok := c.uncompress(comp[:len(comp)/2]); ok {
			t.Errorf("%s: a truncated block uncompressed without error", kind)
		}
	}
}

// TestBlockCodecRefusesUnlinked: db_bench's CompressData returns false for
// no compression and for a library it was built without; this program links
// neither zlib, bzip2 nor xpress.
func TestBlockCodecRefusesUnlinked(t *testing.T) {
	for _, kind := range []string{"none", "zlib", "bzip2", "xpress"} {
		c := newBlockCodec(kind, 4096)
		if _, ok := c.compress(dbBenchBlock); ok {
			t.Errorf("%s: compress succeeded", kind)
		}
	}
}

func TestBlockCodecAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector (sync.Pool drops objects); the plain run checks them")
	}
	block := buildValueData(0.5, 0)[:4096]
	for _, kind := range []string{"snappy", "lz4", "lz4hc", "zstd"} {
		c := newBlockCodec(kind, len(block))
		comp, _ := c.compress(block)
		comp = append([]byte(nil), comp...)
		if n := testing.AllocsPerRun(50, func() { c.compress(block) }); n != 0 {
			t.Errorf("%s: compress allocates %v times a block", kind, n)
		}
		if n := testing.AllocsPerRun(50, func() { c.uncompress(comp) }); n != 0 {
			t.Errorf("%s: uncompress allocates %v times a block", kind, n)
		}
	}
}
