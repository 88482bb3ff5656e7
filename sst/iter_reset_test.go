package sst

import (
	"math/rand/v2"
	"testing"
)

// TestIterReset: one Iter, closed and Reset over table after table (both
// read modes, with a shared cache), reads each exactly as a new iterator
// would; Reset(nil) leaves it holding no Reader, and every block it
// pinned is released, so the cache can evict all of them.
func TestIterReset(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	cache := NewCache(1<<20, -1)
	var t1 Iter
	it := &t1
	for round := range 6 {
		es := randomEntries(rng, []int{1, 300, 2000}[round%3], 200)
		path, _ := writeTable(t, dir, es, WriterOptions{BlockSize: 512, BlockRestartInterval: 16, Compression: CompressionSnappy})
		r := openTable(t, path, ReaderOptions{Mmap: round%2 == 1, Cache: cache, FileNum: uint64(round + 1)})
		it.Reset(r)
		i := 0
		for ok := it.First(); ok; ok = it.Next() {
			checkEntry(t, it, es[i], true)
			i++
		}
		if it.Error() != nil || i != len(es) {
			t.Fatalf("round %d: scan saw %d of %d entries, err %v", round, i, len(es), it.Error())
		}
		target := es[len(es)/2].key
		if !it.SeekGE(target) {
			t.Fatalf("round %d: SeekGE(%q) found nothing", round, target)
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		it.Reset(nil)
		if it.r != nil || it.bufs != nil {
			t.Fatalf("round %d: Reset(nil) kept reader %v, buffers %v", round, it.r != nil, it.bufs != nil)
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for s := range cache.shards {
		sh := &cache.shards[s]
		for id := range int32(len(sh.slabs) * slotsPerSlabMax) {
			if sh.slabs[id/slotsPerSlabMax].meta == nil || int(id%slotsPerSlabMax) >= len(sh.slabs[id/slotsPerSlabMax].meta) {
				continue
			}
			if n := sh.meta(id).refs.Load(); n != 0 {
				t.Fatalf("shard %d slot %d still pinned %d times", s, id, n)
			}
		}
	}
}
