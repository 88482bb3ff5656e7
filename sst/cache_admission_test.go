package sst

import (
	"bytes"
	"sync/atomic"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/statistics"
)

// TestCacheAdmitsOnSecondMissWhenFull: a cache with room admits a data
// block on its first miss; once its shard has evicted, a block is declined
// on its first miss and admitted on its second, and the doorkeeper forgets
// a first miss after its window of others.
func TestCacheAdmitsOnSecondMissWhenFull(t *testing.T) {
	c := NewCache(4*slabSize, 0)
	fill := func(file, off uint64) bool {
		h, b, ok := c.admit(file, off, 3000, false)
		if ok {
			b[0] = byte(off)
			c.publish(h, new(atomic.Int32))
			h.release()
		}
		return ok
	}
	if !fill(1, 0) {
		t.Fatal("an empty cache declined a block")
	}
	off := uint64(4096)
	for ; !c.shards[0].full.Load(); off += 4096 {
		if !fill(1, off) {
			t.Fatalf("block %d declined before the cache was full", off)
		}
	}
	next := off + 4096
	if fill(2, next) {
		t.Fatal("a full cache admitted a block on its first miss")
	}
	if !fill(2, next) {
		t.Fatal("a full cache declined a block on its second miss")
	}
	window := int(c.shards[0].door.window)
	declined := 0
	for i := range window {
		if !fill(3, uint64(i)*4096) {
			declined++
		}
	}
	if declined < window*9/10 {
		t.Fatalf("%d of %d first misses declined, want nearly all", declined, window)
	}
	// The window has turned over since block (4, 0)'s first miss.
	if fill(4, 0) {
		t.Fatal("first miss admitted")
	}
	for i := range window + 1 {
		fill(5, uint64(i)*4096)
	}
	if fill(4, 0) {
		t.Fatal("a first miss older than the window admitted a block")
	}
}

// TestDeclinedBlocksStillRead: with admission declining, reads through a
// full cache return the right bytes from the reader's own buffers.
func TestDeclinedBlocksStillRead(t *testing.T) {
	es := sequentialEntries(20000)
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BlockSize: 4096, Compression: CompressionSnappy})
	cache := NewCache(4*slabSize, 0)
	r := openTable(t, path, ReaderOptions{Cache: cache})
	for round := range 3 {
		for i := len(es) - 1; i >= 0; i -= 7 {
			e := es[i]
			found, err := r.Get(e.key, base.MaxSeq, func(v []byte, _ base.Kind, _ uint64) {
				if !bytes.Equal(v, e.value) {
					t.Fatalf("round %d: key %q: wrong value", round, e.key)
				}
			})
			if err != nil || !found {
				t.Fatalf("round %d: key %q: found %v, err %v", round, e.key, found, err)
			}
		}
	}
	if !cache.shards[0].full.Load() {
		t.Fatal("the table did not overflow the cache: the test reads nothing past admission")
	}
}

// TestConcurrentScansShareBlocks: once the cache is full, a lone scan
// still goes through the doorkeeper (its blocks are not cached on a first
// miss), but two scans of one table open together cache each block on its
// first miss, so the scan behind reads it from the cache: about one miss
// per block loaded by the pair, not two. Close takes a scan off the count.
func TestConcurrentScansShareBlocks(t *testing.T) {
	es := sequentialEntries(20000)
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BlockSize: 4096, Compression: CompressionSnappy})
	stats := statistics.New(statistics.ExceptTimers)
	cache := NewCache(4*slabSize, 0)
	r := openTable(t, path, ReaderOptions{Cache: cache, Statistics: stats})
	scan := func(its ...*Iter) {
		t.Helper()
		ok := make([]bool, len(its))
		for j, it := range its {
			ok[j] = it.Last()
		}
		for i := len(es) - 1; i >= 0; i-- {
			for j, it := range its {
				if !ok[j] || !bytes.Equal(it.Key(), es[i].key) {
					t.Fatalf("scan %d at %d: valid %v, key %q, err %v", j, i, ok[j], it.Key(), it.Error())
				}
				if v, err := it.Value(); err != nil || !bytes.Equal(v, es[i].value) {
					t.Fatalf("scan %d at %d: value err %v", j, i, err)
				}
				ok[j] = it.Prev()
			}
		}
		for _, it := range its {
			if err := it.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
	scan(r.NewIter()) // fills the cache past its budget
	if !cache.shards[0].full.Load() {
		t.Fatal("the table did not overflow the cache")
	}
	added := stats.Ticker(statistics.BlockCacheDataAdd)
	scan(r.NewIter())
	if n := stats.Ticker(statistics.BlockCacheDataAdd) - added; n > 100 {
		t.Fatalf("a lone scan of a full cache cached %d blocks on their first miss", n)
	}
	missed, hit := stats.Ticker(statistics.BlockCacheDataMiss), stats.Ticker(statistics.BlockCacheDataHit)
	scan(r.NewIter(), r.NewIter())
	misses := stats.Ticker(statistics.BlockCacheDataMiss) - missed
	loads := misses + stats.Ticker(statistics.BlockCacheDataHit) - hit
	if misses*10 > loads*6 {
		t.Fatalf("two scans together: %d misses of %d block loads, want about half", misses, loads)
	}
	if n := r.scans.Load(); n != 0 {
		t.Fatalf("%d scans counted after every iterator closed", n)
	}
}
