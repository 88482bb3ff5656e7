package sst

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// TestNoAllocs checks that Get, seeks, Next, Prev and Value allocate
// nothing in steady state, in every read mode and compression.
func TestNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless in -race builds")
	}
	dir := t.TempDir()
	var es []entry
	for i := range 5000 {
		es = append(es, entry{appendTestKey(nil, i*2), 100, base.KindSet, fmt.Appendf(nil, "value%090d", i)})
	}
	for _, comp := range []Compression{CompressionNone, CompressionSnappy, CompressionZstd, CompressionLZ4} {
		path, _ := writeTable(t, dir, es, WriterOptions{Compression: comp, BloomBitsPerKey: 10})
		for _, mode := range readModes {
			r := openTable(t, path, ReaderOptions{Mmap: mode.mmap, Cache: NewCache(mode.cache, -1)})
			it := r.NewIter()
			rng := rand.New(rand.NewPCG(3, 4))
			key := make([]byte, 0, 32)
			sink := 0
			fn := func(v []byte, _ base.Kind, _ uint64) { sink += len(v) }
			ops := map[string]func(){
				"Get": func() {
					key = appendTestKey(key[:0], rng.IntN(len(es)*2))
					if _, err := r.Get(key, 1000, fn); err != nil {
						t.Fatal(err)
					}
				},
				"SeekGE+Value": func() {
					key = appendTestKey(key[:0], rng.IntN(len(es)*2))
					if it.SeekGE(key) {
						it.Value()
					}
				},
				"SeekLT": func() {
					key = appendTestKey(key[:0], rng.IntN(len(es)*2))
					it.SeekLT(key)
				},
				"Next+Value": func() {
					if !it.Next() {
						it.First()
					}
					it.Value()
				},
				"Prev": func() {
					if !it.Prev() {
						it.Last()
					}
				},
			}
			for name, op := range ops {
				op() // warm the buffers
				if n := testing.AllocsPerRun(2000, op); n != 0 {
					t.Errorf("%v %s: %s allocates %.2f times per call", comp, mode.name, name, n)
				}
			}
			it.Close()
			r.Close()
		}
	}
}

// TestConcurrentReaders runs Gets and scans on shared readers and one small
// shared cache from several goroutines; run it with -race.
func TestConcurrentReaders(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 6))
	cache := NewCache(256<<10, 2) // small: forces eviction while readers pin blocks
	var readers []*Reader
	var tables [][]entry
	for i := range 3 {
		es := randomEntries(rng, 1500, 300)
		// The third table's index and filter partitions share the cache.
		partitioned := i == 2
		path, _ := writeTable(t, dir, es, WriterOptions{Compression: []Compression{CompressionNone, CompressionSnappy, CompressionZstd}[i], BlockSize: 1024,
			BloomBitsPerKey: 10, PartitionIndex: partitioned, PartitionFilters: partitioned, MetadataBlockSize: 128})
		readers = append(readers, openTable(t, path, ReaderOptions{Cache: cache, FileNum: uint64(i + 1), Mmap: i == 1, CacheIndexAndFilterBlocks: partitioned}))
		tables = append(tables, es)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			for range 3 {
				i := rng.IntN(len(readers))
				r, es := readers[i], tables[i]
				it := r.NewIter()
				n := 0
				for ok := it.First(); ok; ok = it.Next() {
					v, err := it.Value()
					if err != nil || string(v) != string(es[n].value) || string(it.Key()) != string(es[n].key) {
						t.Errorf("table %d entry %d: got (%q, %q, %v)", i, n, it.Key(), v, err)
						return
					}
					n++
				}
				it.Close()
				for range 300 {
					e := es[rng.IntN(len(es))]
					var got []byte
					found, err := r.Get(e.key, base.MaxSeq, func(v []byte, _ base.Kind, _ uint64) { got = append(got[:0], v...) })
					if err != nil || !found {
						t.Errorf("Get(%q): %v %v", e.key, found, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if u := cache.Usage(); u > cache.Capacity() || u <= 0 {
		t.Errorf("cache usage %d outside (0, %d]", u, cache.Capacity())
	}
	for _, r := range readers {
		r.Close()
	}
}

// appendTestKey appends "key" and n as 12 zero-padded digits, without the
// allocation fmt would make to box n.
func appendTestKey(dst []byte, n int) []byte {
	dst = append(dst, "key000000000000"...)
	start := len(dst)
	dst = strconv.AppendInt(dst, int64(n), 10)
	digits := len(dst) - start
	copy(dst[start-digits:], dst[start:])
	return dst[:start]
}
