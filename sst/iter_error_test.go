package sst

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// sequentialEntries returns n entries key%06d, one version each.
func sequentialEntries(n int) []entry {
	es := make([]entry, n)
	for i := range es {
		es[i] = entry{key: fmt.Appendf(nil, "key%06d", i), seq: uint64(n - i), kind: base.KindSet, value: fmt.Appendf(nil, "value%06d-%040d", i, i)}
	}
	return es
}

// TestIterSeekAfterFailedBlockLoad damages one key block and requires every
// seek that needs it to fail, also a seek that follows a failed load of
// the same block: the block iterator must not go on with the bytes of the
// block loaded before.
func TestIterSeekAfterFailedBlockLoad(t *testing.T) {
	dir := t.TempDir()
	es := sequentialEntries(2000)
	path, _ := writeTable(t, dir, es, WriterOptions{BlockSize: 1024})
	for _, mode := range readModes {
		t.Run(mode.name, func(t *testing.T) {
			clean := openTable(t, path, ReaderOptions{})
			d := clean.blocks.at(3)
			clean.Close()
			if clean.blocks.len() < 8 {
				t.Fatalf("%d blocks", clean.blocks.len())
			}
			bad := path + ".bad"
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			data[d.offset+uint64(d.keyLen)/2] ^= 0x40
			if err := os.WriteFile(bad, data, 0o644); err != nil {
				t.Fatal(err)
			}
			var cache *Cache
			if mode.cache > 0 {
				cache = NewCache(mode.cache, 0)
			}
			r := openTable(t, bad, ReaderOptions{Mmap: mode.mmap, Cache: cache})
			defer r.Close()
			// The first and last keys of block 3.
			it := r.NewIter()
			defer it.Close()
			var inBlock [][]byte
			for i, e := range es {
				if r.findBlock(e.key) == 3 && i > 0 && r.findBlock(es[i-1].key) == 3 {
					inBlock = append(inBlock, e.key)
				}
			}
			mid := inBlock[len(inBlock)/2]
			later := es[len(es)-5].key
			if !it.SeekGE(later) || !bytes.Equal(it.Key(), later) {
				t.Fatalf("SeekGE %s: %v %s", later, it.Error(), it.Key())
			}
			for round := 0; round < 2; round++ {
				if it.SeekGE(mid) {
					t.Fatalf("SeekGE %s in the damaged block returned %s", mid, it.Key())
				}
				if it.Error() == nil || it.Valid() || it.Next() || it.Prev() {
					t.Fatalf("after a failed SeekGE: error %v, valid %v", it.Error(), it.Valid())
				}
				if it.SeekLT(mid) {
					t.Fatalf("SeekLT %s in the damaged block returned %s", mid, it.Key())
				}
				if !errors.Is(it.Error(), ErrCorruption) {
					t.Fatalf("SeekLT: error %v", it.Error())
				}
				// A seek elsewhere works again.
				if !it.SeekGE(later) || !bytes.Equal(it.Key(), later) || it.Error() != nil {
					t.Fatalf("SeekGE %s after the error: %v %s", later, it.Error(), it.Key())
				}
			}
		})
	}
}
