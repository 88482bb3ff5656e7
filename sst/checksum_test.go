package sst

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// rocksDBFooter is the tail of a RocksDB block-based table of format
// version 2 or later: checksum type, metaindex and index handles (varints,
// zero padded to 40 bytes), format version, magic.
const (
	rocksDBFooterLen = 53
	rocksDBMagic     = 0x88e241b785f4cff7
)

// TestChecksumMatchesRocksDB checks the trailers of the metaindex and index
// blocks of tables RocksDB 7.8.3 wrote (db_bench --benchmarks=fillseq,compact
// --num=20 --value_size=16 --compression_type=none --checksum_type=N) with
// the checksum function of the type the footer names: each type must
// compute what RocksDB computes over the same bytes, and no other type may.
func TestChecksumMatchesRocksDB(t *testing.T) {
	for n := range len(rocksDBChecksumNumbers) {
		b, err := os.ReadFile(filepath.Join("testdata", "rocksdb", fmt.Sprintf("checksum_type_%d.sst", n)))
		if err != nil {
			t.Fatal(err)
		}
		ft := b[len(b)-rocksDBFooterLen:]
		if m := binary.LittleEndian.Uint64(ft[45:]); m != rocksDBMagic {
			t.Fatalf("type %d: magic %#x", n, m)
		}
		if int(ft[0]) != n {
			t.Fatalf("file of type %d records checksum type %d", n, ft[0])
		}
		typ, err := ChecksumTypeFromRocksDB(n)
		if err != nil {
			t.Fatal(err)
		}
		rest := ft[1:41]
		for _, name := range []string{"metaindex", "index"} {
			off, k := binary.Uvarint(rest)
			size, k2 := binary.Uvarint(rest[k:])
			rest = rest[k+k2:]
			block := b[off : off+size+1]
			stored := binary.LittleEndian.Uint32(b[off+size+1:])
			if got := typ.sum(block); got != stored {
				t.Errorf("%v: %s block: computed %#x, RocksDB stored %#x", typ, name, got, stored)
			}
			for other := range len(rocksDBChecksumNumbers) {
				o := rocksDBChecksumNumbers[other]
				if o != typ && o.sum(block) == stored {
					t.Errorf("%s block of a %v table also matches %v", name, typ, o)
				}
			}
		}
	}
}

func TestChecksumTypeNumbers(t *testing.T) {
	for n := range 5 {
		typ, err := ChecksumTypeFromRocksDB(n)
		if err != nil || int(typ.RocksDBNumber()) != n {
			t.Errorf("ChecksumTypeFromRocksDB(%d) = %v, %v; its number %d", n, typ, err, typ.RocksDBNumber())
		}
	}
	for _, bad := range []int{-1, 5, 255} {
		if _, err := ChecksumTypeFromRocksDB(bad); err == nil {
			t.Errorf("ChecksumTypeFromRocksDB(%d) succeeded", bad)
		}
	}
	var w WriterOptions
	if w.Checksum != ChecksumCRC32C {
		t.Error("the zero WriterOptions does not checksum with CRC32C")
	}
	for _, bad := range []WriterOptions{{Checksum: 9}, {FormatVersion: 4}, {FormatVersion: 1, Checksum: ChecksumXXH3}} {
		if _, err := NewWriter(&bytes.Buffer{}, bad).Finish(); err == nil {
			t.Errorf("a writer accepted %+v", bad)
		}
	}
}

// TestMaskCRC32C pins RocksDB's crc32c::Mask and its inverse.
func TestMaskCRC32C(t *testing.T) {
	// RocksDB's crc32c_test: Mask(0) is kMaskDelta, and masking twice
	// differs from masking once.
	if maskCRC32C(0) != crc32cMaskDelta {
		t.Fatalf("mask(0) = %#x", maskCRC32C(0))
	}
	for _, c := range []uint32{0, 1, 0xdeadbeef, 0xffffffff, 0x12345678} {
		if unmaskCRC32C(maskCRC32C(c)) != c || maskCRC32C(maskCRC32C(c)) == maskCRC32C(c) {
			t.Errorf("mask/unmask of %#x", c)
		}
	}
}

// TestFormatVersion1Readable reads the version 1 golden tables, written
// before footers recorded a checksum type (their blocks carry the plain
// CRC32C), requires a damaged block among them to be caught, and requires
// a writer asked for version 1 to write them byte for byte.
func TestFormatVersion1Readable(t *testing.T) {
	dir := t.TempDir()
	for _, g := range goldenTables[:2] {
		path := filepath.Join("testdata", "v1", g.file)
		opts := g.opts
		opts.FormatVersion = 1
		opts.CompressIndex = true // version 1 has no compressed index
		if want, err := os.ReadFile(path); err != nil || !bytes.Equal(buildTable(t, g.entries(), opts), want) {
			t.Errorf("%s: a version 1 writer's bytes differ from the golden table (%v)", g.file, err)
		}
		r := openTable(t, path, ReaderOptions{})
		if v := r.Properties().FormatVersion; v != 1 {
			t.Errorf("%s: format version %d", g.file, v)
		}
		checkScan(t, r, g.entries())
		first := r.blocks.at(0)
		r.Close()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		b[first.offset] ^= 1
		bad := filepath.Join(dir, g.file)
		if err := os.WriteFile(bad, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := readWholeTable(bad, false, g.entries()); !errors.Is(err, ErrCorruption) {
			t.Errorf("%s: damaged first block: %v", g.file, err)
		}
	}
}

// TestCorruptionDetectedPerChecksum flips one bit of every byte of a
// table written with each checksum type: every flip must be an
// ErrCorruption error, except with ChecksumNone, where a flip inside a
// block may also give other data (as in RocksDB) but never a panic or an
// error of another kind.
func TestCorruptionDetectedPerChecksum(t *testing.T) {
	dir := t.TempDir()
	es := multiblockEntries()
	comps := []Compression{CompressionNone, CompressionSnappy, CompressionLZ4, CompressionZstd}
	for i, typ := range []ChecksumType{ChecksumNone, ChecksumXXHash, ChecksumXXHash64, ChecksumXXH3, ChecksumCRC32C} {
		opts := WriterOptions{BlockSize: 128, BloomBitsPerKey: 10, Checksum: typ, Compression: comps[i%len(comps)]}
		good := buildTable(t, es, opts)
		path := filepath.Join(dir, "bad.sst")
		unnoticed := 0
		for pos := range good {
			bad := bytes.Clone(good)
			bad[pos] ^= 1 << ((pos + i) % 8)
			if err := os.WriteFile(path, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			err := readWholeTable(path, i%2 == 1, es)
			switch {
			case errors.Is(err, ErrCorruption):
			case typ == ChecksumNone && (err == nil || errors.Is(err, errWrongData)):
				unnoticed++
			default:
				t.Fatalf("%v, %v: flipping byte %d of %d: %v", typ, opts.Compression, pos, len(good), err)
			}
		}
		if typ == ChecksumNone && unnoticed == 0 {
			t.Errorf("no flip went unnoticed without checksums: are trailers still checked?")
		}
	}
}
