package sst

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// dbBenchEntries are entries shaped like db_bench's at its defaults:
// 16-byte keys (an 8-byte big-endian number padded with '0's), values
// half repeated bytes, so both key and value blocks compress well.
func dbBenchEntries(n int) []entry {
	es := make([]entry, n)
	for i := range es {
		key := binary.BigEndian.AppendUint64(nil, uint64(i)*7919)
		key = append(key, "00000000"...)
		value := fmt.Appendf(nil, "%050d", i*31)
		value = append(value, make([]byte, 50)...)
		es[i] = entry{key, uint64(10*n - i), base.KindSet, value}
	}
	return es
}

// blockTypes returns the compression bytes of every key block and every
// value block of a table.
func blockTypes(t *testing.T, table []byte, path string) (keys, values []Compression) {
	t.Helper()
	r := openTable(t, path, ReaderOptions{})
	defer r.Close()
	for i := range r.blocks.len() {
		d := r.blocks.at(i)
		keys = append(keys, Compression(table[d.offset+uint64(d.keyLen)]))
		values = append(values, Compression(table[d.valueOffset()+uint64(d.valueLen)]))
	}
	return keys, values
}

// TestKeyBlockCompression writes compressible tables with every codec:
// without CompressKeyBlocks every key block is stored raw and every value
// block compressed; with it both are compressed (the last pair, which
// may be too short to compress, aside). Both tables read back
// whole (scan and Get) in every read mode.
func TestKeyBlockCompression(t *testing.T) {
	dir := t.TempDir()
	es := dbBenchEntries(2000)
	for _, c := range []Compression{CompressionSnappy, CompressionLZ4, CompressionZstd} {
		for _, compressKeys := range []bool{false, true} {
			name := fmt.Sprintf("%v/CompressKeyBlocks=%v", c, compressKeys)
			table := buildTable(t, es, WriterOptions{Compression: c, CompressKeyBlocks: compressKeys})
			path := filepath.Join(dir, "t.sst")
			if err := os.WriteFile(path, table, 0o644); err != nil {
				t.Fatal(err)
			}
			keys, values := blockTypes(t, table, path)
			if len(keys) < 10 {
				t.Fatalf("%s: %d pairs, want at least 10", name, len(keys))
			}
			wantKeys := CompressionNone
			if compressKeys {
				wantKeys = c
			}
			// The last pair may be too short to compress.
			for i := range len(keys) - 1 {
				if keys[i] != wantKeys || values[i] != c {
					t.Fatalf("%s: pair %d stored key block %v, value block %v; want %v, %v", name, i, keys[i], values[i], wantKeys, c)
				}
			}
			for _, m := range readModes {
				opts := ReaderOptions{Mmap: m.mmap}
				if m.cache > 0 {
					opts.Cache = NewCache(m.cache, 0)
				}
				if err := readWholeTableWith(path, opts, es); err != nil {
					t.Fatalf("%s, %s: %v", name, m.name, err)
				}
				getEvery(t, name+", "+m.name, path, opts, es)
			}
		}
	}
}

// getEvery opens path with opts and requires Get to find every entry of
// es with its value.
func getEvery(t *testing.T, name, path string, opts ReaderOptions, es []entry) {
	t.Helper()
	r := openTable(t, path, opts)
	defer r.Close()
	for _, e := range es {
		var got []byte
		found, err := r.Get(e.key, base.MaxSeq, func(v []byte, _ base.Kind, _ uint64) { got = bytes.Clone(v) })
		if err != nil || !found || !bytes.Equal(got, e.value) {
			t.Fatalf("%s: Get(%x) = %q, %v, %v; want %q", name, e.key, got, found, err, e.value)
		}
	}
}
