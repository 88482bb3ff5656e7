package sst

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// FuzzKeyBlock decodes arbitrary bytes as a key block, moving every way;
// it must never panic.
func FuzzKeyBlock(f *testing.F) {
	var b keyBlockWriter
	b.interval = 2
	b.add([]byte("apple"), base.MakeTrailer(7, base.KindSet), []byte("red"))
	b.add([]byte("apple"), base.MakeTrailer(5, base.KindDelete), nil)
	b.add([]byte("apricot"), base.MakeTrailer(9, base.KindSet), []byte("orange"))
	f.Add(b.finishKeys(), []byte("apr"))
	f.Add([]byte{0, 0, 0, 0}, []byte("a"))
	f.Fuzz(func(t *testing.T, data, target []byte) {
		var it blockIter
		if it.init(data) != nil {
			return
		}
		n := 0
		for ok := it.first(); ok && n < 10000; ok = it.next() {
			n++
		}
		for ok := it.last(); ok && n < 20000; ok = it.prev() {
			n++
		}
		if it.seekGE(target) {
			it.prev()
		}
	})
}

// FuzzMetaBlocks decodes arbitrary bytes as properties, filter and index
// blocks; it must never panic.
func FuzzMetaBlocks(f *testing.F) {
	p := Properties{NumEntries: 3, SmallestKey: []byte("a"), LargestKey: []byte("b")}
	f.Add(p.encode(nil))
	f.Add(buildBloom(nil, []uint64{1, 2, 3}, 10))
	f.Add([]byte{1, 7, 'a', 'p', 'r', 'i', 'c', 'o', 't', 0, 0x2f, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeProperties(data)
		if bf, ok := decodeBloom(data); ok {
			bf.MayContain(hashKey(data))
		}
		r := &Reader{name: "fuzz", size: 1 << 40}
		if _, err := r.appendIndexEntries(data, 0); err == nil {
			r.finishIndex()
			r.findBlock(data)
		}
		for _, c := range []Compression{CompressionSnappy, CompressionLZ4, CompressionZstd} {
			if n, err := decodedLen(data, c); err == nil && n < 1<<20 {
				decompress(make([]byte, n), data, c)
			}
		}
	})
}

// FuzzOpen opens arbitrary bytes as a table in three read modes and reads
// everything; it must never panic, and errors must wrap ErrCorruption.
func FuzzOpen(f *testing.F) {
	for _, g := range goldenTables {
		if b, err := os.ReadFile(filepath.Join("testdata", g.file)); err == nil {
			f.Add(b)
		}
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.sst")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// Pread, mmap, and pread with partitions through the cache.
		for mode := range 3 {
			file, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Open(file, int64(len(data)), ReaderOptions{Mmap: mode == 1, Cache: NewCache(1<<20, 0), CacheIndexAndFilterBlocks: mode == 2})
			if err != nil {
				continue
			}
			it := r.NewIter()
			var last []byte
			for ok := it.First(); ok; ok = it.Next() {
				it.Value()
				last = append(last[:0], it.Key()...)
			}
			for ok := it.Last(); ok; ok = it.Prev() {
			}
			it.SeekGE([]byte("apr"))
			it.SeekLT(last)
			it.Close()
			r.Get(last, base.MaxSeq, func([]byte, base.Kind, uint64) {})
			r.Get(bytes.Repeat([]byte("x"), 3), 5, func([]byte, base.Kind, uint64) {})
			r.Close()
		}
	})
}

// FuzzDamagedBlock patches the first key or value block of a valid table
// with fuzz bytes and repairs its checksum, so decompression and block
// decoding see damaged input through the whole Reader: reads must end in
// ErrCorruption or other data, never a panic.
func FuzzDamagedBlock(f *testing.F) {
	f.Add(uint8(0), false, uint16(3), []byte{0xff, 0x00})
	f.Add(uint8(1), true, uint16(0), []byte{0x80})
	f.Add(uint8(3), false, uint16(10), []byte{0x7f, 0x7f, 0x7f})
	es := goldenTables[1].entries()
	comps := []Compression{CompressionNone, CompressionSnappy, CompressionLZ4, CompressionZstd}
	tables := make([][]byte, len(comps))
	for i, c := range comps {
		opts := goldenTables[1].opts
		opts.Compression = c
		tables[i] = buildTable(f, es, opts)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, comp uint8, values bool, pos uint16, patch []byte) {
		table := bytes.Clone(tables[int(comp)%len(tables)])
		path := filepath.Join(dir, "damaged.sst")
		if err := os.WriteFile(path, table, 0o644); err != nil {
			t.Fatal(err)
		}
		r := openTable(t, path, ReaderOptions{})
		d := r.blocks.at(0)
		r.Close()
		off, n := d.offset, d.keyLen
		if values {
			off, n = d.valueOffset(), d.valueLen
		}
		if n == 0 {
			return
		}
		block := table[off : off+uint64(n)]
		for i, b := range patch {
			block[(int(pos)+i)%len(block)] ^= b
		}
		binary.LittleEndian.PutUint32(table[off+uint64(n)+1:], ChecksumCRC32C.sum(table[off:off+uint64(n)+1]))
		if err := os.WriteFile(path, table, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, mmap := range []bool{false, true} {
			if err := readWholeTable(path, mmap, es); err != nil && !errors.Is(err, ErrCorruption) && !errors.Is(err, errWrongData) {
				t.Fatalf("error %v is neither corruption nor a data mismatch", err)
			}
		}
	})
}

// FuzzFooter decodes arbitrary bytes as a footer, most of them with the
// footer's CRC and magic repaired so that the fields behind them are
// explored: it must never panic, and a footer it accepts must encode back
// to the same bytes, so that the version and checksum type bytes have
// exactly one reading.
func FuzzFooter(f *testing.F) {
	for _, g := range goldenTables {
		if b, err := os.ReadFile(filepath.Join("testdata", g.file)); err == nil {
			f.Add(b[len(b)-footerLen:], int64(len(b)))
		}
	}
	if b, err := os.ReadFile(filepath.Join("testdata", "v1", "example.sst")); err == nil {
		f.Add(b[len(b)-footerLen:], int64(len(b)))
	}
	f.Fuzz(func(t *testing.T, data []byte, size int64) {
		if size < footerLen {
			return
		}
		if len(data) == footerLen && size%4 != 0 {
			data = bytes.Clone(data)
			binary.LittleEndian.PutUint32(data[40:], crc32.Checksum(data[:40], crcTable))
			binary.LittleEndian.PutUint64(data[44:], tableMagic)
		}
		ft, err := decodeFooter(data, size, "fuzz")
		if err != nil {
			if !errors.Is(err, ErrCorruption) {
				t.Fatalf("error %v does not wrap ErrCorruption", err)
			}
			return
		}
		if got := ft.encode(nil); !bytes.Equal(got, data) {
			t.Fatalf("footer %x decodes to %+v, which encodes to %x", data, ft, got)
		}
	})
}

// FuzzPartitionedIndex decodes arbitrary bytes as a top-level index and a
// top-level filter index over an arbitrary file (checksum type none, so
// that partitions with zero trailers get through to their decoders): it
// must never panic, and its errors must wrap ErrCorruption.
func FuzzPartitionedIndex(f *testing.F) {
	example := buildTable(f, goldenTables[len(goldenTables)-1].entries(), goldenTables[len(goldenTables)-1].opts)
	f.Add(example[:0x69], example[0x69:0x7c], []byte{2, 0, 8, 0x58, 12})
	f.Add([]byte{1, 1, 'a', 0, 0, 0, 0, 0, 0, 0}, []byte{1, 1, 'a', 0, 5, 1}, []byte{1, 0, 0})
	f.Fuzz(func(t *testing.T, file, top, filterTop []byte) {
		for _, lazy := range []bool{false, true} {
			r := &Reader{name: "fuzz", size: int64(len(file)) + footerLen, mapped: file, checksum: ChecksumNone}
			parts, err := r.decodePartitionedIndex(top, 0)
			if err == nil {
				r.finishIndex()
				if lazy {
					r.cache = NewCache(1<<20, 0)
					r.goLazy(parts)
				}
				_, err = r.seekBlock(top)
				r.seekPartition(filterTop)
			}
			if err == nil {
				err = r.decodePartitionedFilter(filterTop, 0)
			}
			if err == nil && r.blocks.len() > 0 {
				r.hasFilter = true
				r.MayContain(top)
				r.prefixMayMatch(filterTop)
			}
			if err != nil && !errors.Is(err, ErrCorruption) {
				t.Fatalf("lazy %v: error %v does not wrap ErrCorruption", lazy, err)
			}
		}
	})
}
