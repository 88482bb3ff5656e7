package sst

import (
	"bytes"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/statistics"
)

// pairCounts is what the block cache statistics say after some reads.
type pairCounts struct{ miss, hit, add uint64 }

func readPairCounts(s *statistics.Statistics) pairCounts {
	return pairCounts{
		miss: s.Ticker(statistics.BlockCacheDataMiss),
		hit:  s.Ticker(statistics.BlockCacheDataHit),
		add:  s.Ticker(statistics.BlockCacheDataAdd),
	}
}

// TestPairedValueFollowsItsKeyBlock: a Get or a seek that reads a pair
// from the file for its key block takes the value block from that read
// without searching the cache for it (one miss, not two), and caches the
// value block exactly when the key block was cached: both while the cache
// has room, neither on a first miss once it is full, both on the second.
func TestPairedValueFollowsItsKeyBlock(t *testing.T) {
	sampleEveryRead(t)
	es, r, cache, stats := cachedSnappyTable(t, 4*slabSize)
	defer r.Close()
	get := func(i int) {
		t.Helper()
		mustGet(t, r, es[i])
	}
	// An iterator reads key blocks alone until its first Value, so the
	// seeks share one that has read a value.
	it := r.NewIter()
	defer it.Close()
	seek := func(i int) {
		t.Helper()
		if !it.SeekGE(es[i].key) || !bytes.Equal(it.Key(), es[i].key) {
			t.Fatalf("seek %q: at %q, err %v", es[i].key, it.Key(), it.Error())
		}
		if v, err := it.Value(); err != nil || !bytes.Equal(v, es[i].value) {
			t.Fatalf("seek %q: value %q, err %v", es[i].key, v, err)
		}
	}
	step := func(what string, read func(int), i int, want pairCounts) {
		t.Helper()
		before := readPairCounts(stats)
		read(i)
		after := readPairCounts(stats)
		got := pairCounts{after.miss - before.miss, after.hit - before.hit, after.add - before.add}
		if got != want {
			t.Fatalf("%s of entry %d: misses, hits, adds %+v, want %+v", what, i, got, want)
		}
	}

	// Room in the cache: the first read misses once and caches both
	// blocks; the second finds both.
	step("first get", get, 0, pairCounts{miss: 1, add: 2})
	step("second get", get, 0, pairCounts{hit: 2})
	seek(5000)
	step("first seek", seek, 10000, pairCounts{miss: 1, add: 2})
	seek(5000) // moves off the block, which the iterator then lets go
	step("second seek", seek, 10000, pairCounts{hit: 2})

	// Fill the cache until its shard has to evict.
	fillUntilFull(t, r, cache, es)
	// Full: a block's first miss caches neither block, its second both.
	last := len(es) - 1
	step("first get when full", get, last, pairCounts{miss: 1})
	step("second get when full", get, last, pairCounts{miss: 1, add: 2})
	step("third get when full", get, last, pairCounts{hit: 2})
}

// mustGet reads e's key through r.Get and fails unless it finds e's value.
func mustGet(t *testing.T, r *Reader, e entry) {
	t.Helper()
	found, err := r.Get(e.key, base.MaxSeq, valueIs(t, e))
	mustHaveFound(t, e, found, err)
}

// valueIs is a Get callback that fails t unless the value is e's.
func valueIs(t *testing.T, e entry) func([]byte, base.Kind, uint64) {
	return func(v []byte, _ base.Kind, _ uint64) {
		if !bytes.Equal(v, e.value) {
			t.Fatalf("key %q: wrong value", e.key)
		}
	}
}

// mustHaveFound fails t unless a Get of e found it without an error.
func mustHaveFound(t *testing.T, e entry, found bool, err error) {
	t.Helper()
	if err != nil || !found {
		t.Fatalf("key %q: found %v, err %v", e.key, found, err)
	}
}

// fillUntilFull reads every 37th of es through r until the first shard
// of cache has had to evict.
func fillUntilFull(t *testing.T, r *Reader, cache *Cache, es []entry) {
	t.Helper()
	for i := 0; !cache.shards[0].full.Load(); i += 37 {
		if i >= len(es) {
			t.Fatal("the table did not overflow the cache")
		}
		mustGet(t, r, es[i])
	}
}

// fullSnappyTable is cachedSnappyTable with 4 slabs of cache, filled
// until its first shard has had to evict; the reader is closed when the
// test ends.
func fullSnappyTable(t *testing.T) ([]entry, *Reader, *statistics.Statistics) {
	t.Helper()
	es, r, cache, stats := cachedSnappyTable(t, 4*slabSize)
	t.Cleanup(func() { r.Close() })
	fillUntilFull(t, r, cache, es)
	return es, r, stats
}

// cachedSnappyTable writes 20,000 entries in snappy pairs of 4 KiB and
// opens them with a block cache of capacity bytes and statistics.
func cachedSnappyTable(t *testing.T, capacity int64) ([]entry, *Reader, *Cache, *statistics.Statistics) {
	t.Helper()
	es := sequentialEntries(20000)
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BlockSize: 4096, Compression: CompressionSnappy})
	stats := statistics.New(statistics.ExceptTimers)
	cache := NewCache(capacity, 0)
	return es, openTable(t, path, ReaderOptions{Cache: cache, Statistics: stats}), cache, stats
}

// TestPairedValueCachedOnce: when a Get caches a key block whose value
// block outlived it in the cache, the cached value block is used (a hit),
// not decoded into a second slot.
func TestPairedValueCachedOnce(t *testing.T) {
	es, r, cache, stats := cachedSnappyTable(t, 4*slabSize)
	defer r.Close()
	mustGet(t, r, es[100]) // caches both blocks of its pair
	st := r.getState.Get().(*getState)
	defer r.getState.Put(st)
	i, err := r.seekBlock(es[100].key)
	if err != nil {
		t.Fatal(err)
	}
	st.pair.reset()
	d := r.blocks.at(i)
	if _, err := r.readPair(&st.pair, i, d.offset, d.keyLen); err != nil {
		t.Fatal(err)
	}
	before := readPairCounts(stats)
	b, h, err := r.loadPairedValue(i, &st.valueBuf, &st.tmp, &st.pair, true)
	if err != nil {
		t.Fatal(err)
	}
	defer h.release()
	if h.s == nil || !bytes.Contains(b, es[100].value) {
		t.Fatalf("value block: handle %v, holds the value %v", h.s != nil, bytes.Contains(b, es[100].value))
	}
	if got := readPairCounts(stats); got.add != before.add || got.hit != before.hit+1 {
		t.Fatalf("counts %+v after %+v: want one hit, no add", got, before)
	}
	if cache.shards[0].full.Load() {
		t.Fatal("the cache filled: the test wants room in it")
	}
}

// TestPairedValueOfAScanKeepsTheScanRule: a value block read ahead by a
// scan is not cached into a full shard, even when its key block was
// cached (the two blocks may lie in shards of which only one is full).
func TestPairedValueOfAScanKeepsTheScanRule(t *testing.T) {
	_, r, stats := fullSnappyTable(t)
	st := r.getState.Get().(*getState)
	defer r.getState.Put(st)
	i := r.blocks.len() - 1
	st.pair.reset()
	d := r.blocks.at(i)
	if _, err := r.readPair(&st.pair, i, d.offset, d.keyLen); err != nil {
		t.Fatal(err)
	}
	st.pair.window = minReadahead // as a scan's read-ahead run leaves it
	before := readPairCounts(stats)
	_, h, err := r.loadPairedValue(i, &st.valueBuf, &st.tmp, &st.pair, true)
	if err != nil {
		t.Fatal(err)
	}
	h.release()
	if got := readPairCounts(stats); got.add != before.add {
		t.Fatalf("a scan's value block was cached into a full shard: adds %d -> %d", before.add, got.add)
	}
}
