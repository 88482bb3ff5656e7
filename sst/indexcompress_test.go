package sst

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// indexEntries are 3000 keys in small blocks: an index with a long run of
// similar separators, which every codec shrinks.
func indexEntries() []entry {
	var es []entry
	for i := range 3000 {
		es = append(es, entry{fmt.Appendf(nil, "index-key-%08d", i*3), uint64(5000 - i), base.KindSet, fmt.Appendf(nil, "v%d", i)})
	}
	return es
}

// indexTrailerType returns the compression byte of the table's index block.
func indexTrailerType(t *testing.T, table []byte) Compression {
	t.Helper()
	ft, err := decodeFooter(table[len(table)-footerLen:], int64(len(table)), "t")
	if err != nil {
		t.Fatal(err)
	}
	return Compression(table[ft.Index.Offset+uint64(ft.Index.Len)])
}

// TestCompressedIndex writes tables with CompressIndex for each codec and
// requires a compressed, smaller index block that reads back; without
// CompressIndex the index stays raw.
func TestCompressedIndex(t *testing.T) {
	dir := t.TempDir()
	es := indexEntries()
	for _, c := range []Compression{CompressionSnappy, CompressionLZ4, CompressionZstd} {
		raw := buildTable(t, es, WriterOptions{BlockSize: 256, Compression: c})
		packed := buildTable(t, es, WriterOptions{BlockSize: 256, Compression: c, CompressIndex: true})
		if got := indexTrailerType(t, raw); got != CompressionNone {
			t.Errorf("%v without CompressIndex: index stored as %v", c, got)
		}
		if got := indexTrailerType(t, packed); got != c {
			t.Errorf("%v with CompressIndex: index stored as %v", c, got)
		}
		for _, mmap := range []bool{false, true} {
			path := filepath.Join(dir, "packed.sst")
			if err := os.WriteFile(path, packed, 0o644); err != nil {
				t.Fatal(err)
			}
			r := openTable(t, path, ReaderOptions{Mmap: mmap})
			rawR := openTable(t, writeTemp(t, dir, raw), ReaderOptions{})
			if r.Properties().IndexSize >= rawR.Properties().IndexSize {
				t.Errorf("%v: compressed index %d bytes, raw %d", c, r.Properties().IndexSize, rawR.Properties().IndexSize)
			}
			rawR.Close()
			checkScan(t, r, es)
			r.Close()
			if err := readWholeTable(path, mmap, es); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func writeTemp(t *testing.T, dir string, b []byte) string {
	t.Helper()
	path := filepath.Join(dir, "raw.sst")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCompressedIndexDamage damages the compressed index block of a table
// and fixes its checksum, as a writer bug would: Open must fail with
// ErrCorruption or the table must read other data, never panic.
func TestCompressedIndexDamage(t *testing.T) {
	dir := t.TempDir()
	es := indexEntries()[:400]
	for _, c := range []Compression{CompressionSnappy, CompressionLZ4, CompressionZstd} {
		good := buildTable(t, es, WriterOptions{BlockSize: 256, Compression: c, CompressIndex: true})
		ft, err := decodeFooter(good[len(good)-footerLen:], int64(len(good)), "t")
		if err != nil {
			t.Fatal(err)
		}
		h := ft.Index
		detected := 0
		for pos := range int(h.Len) {
			bad := bytes.Clone(good)
			bad[h.Offset+uint64(pos)] ^= 0x5a
			end := h.Offset + uint64(h.Len)
			binary.LittleEndian.PutUint32(bad[end+1:], ChecksumCRC32C.sum(bad[h.Offset:end+1]))
			path := filepath.Join(dir, "bad.sst")
			if err := os.WriteFile(path, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			err := readWholeTable(path, pos%2 == 0, es)
			if err != nil && !errors.Is(err, ErrCorruption) && !errors.Is(err, errWrongData) {
				t.Fatalf("%v: byte %d of the index: %v", c, pos, err)
			}
			if errors.Is(err, ErrCorruption) {
				detected++
			}
		}
		if detected == 0 {
			t.Errorf("%v: no damaged index detected", c)
		}
	}
}

// BenchmarkOpenIndexCompression opens a 1M-entry snappy table (16-byte
// keys, 100-byte values) whose index is stored raw or compressed: one op
// is an Open and a Close; index-bytes is the index block on disk.
func BenchmarkOpenIndexCompression(b *testing.B) {
	dir := b.TempDir()
	for _, compressIndex := range []bool{false, true} {
		b.Run(fmt.Sprintf("compressed=%v", compressIndex), func(b *testing.B) {
			path := filepath.Join(dir, fmt.Sprintf("%v.sst", compressIndex))
			s := benchShape{name: "k16v100snappy", keyLen: 16, valueLen: 100, compression: CompressionSnappy, compressIndex: compressIndex}
			p, err := buildNative(path, s)
			if err != nil {
				b.Fatal(err)
			}
			cpu := processCPU()
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				r, err := Open(f, int64(p.FileSize), ReaderOptions{})
				if err != nil {
					b.Fatal(err)
				}
				r.Close()
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(p.IndexSize), "index-bytes")
		})
	}
}
