package sst

import (
	"sync/atomic"
	"testing"
)

// cacheBlock reserves, fills and publishes an n-byte block (file, off),
// bypassing admission, and points hint at it; false when no slot could be
// had.
func cacheBlock(c *Cache, file, off uint64, n int, hint *atomic.Int32) bool {
	h, b, ok := c.reserve(file, off, n)
	if !ok {
		return false
	}
	b[0] = byte(off)
	c.publish(h, hint)
	h.release()
	return true
}

// hitBlock looks (file, off) up through hint and reports whether it was
// cached.
func hitBlock(c *Cache, file, off uint64, hint *atomic.Int32) bool {
	h, _, ok := c.lookup(file, off, hint)
	if ok {
		h.release()
	}
	return ok
}

// fillLarge fills one-shard cache c with 3000-byte blocks of file 1 and
// hits each once; it returns their hints (block i at offset i*4096).
func fillLarge(t *testing.T, c *Cache) []atomic.Int32 {
	t.Helper()
	hints := make([]atomic.Int32, 1024)
	n := 0
	for ; !c.shards[0].full.Load(); n++ {
		if !cacheBlock(c, 1, uint64(n)*4096, 3000, &hints[n]) {
			t.Fatalf("block %d not cached", n)
		}
	}
	hints = hints[:n]
	hits := 0
	for i := range hints {
		if hitBlock(c, 1, uint64(i)*4096, &hints[i]) {
			hits++
		}
	}
	if hits < n-1 {
		t.Fatalf("%d of %d large blocks found", hits, n)
	}
	return hints
}

// TestCacheSlabsFollowReads: a cache filled with large blocks that are
// then no longer read gives its slabs, but one, to the small blocks read
// after them.
func TestCacheSlabsFollowReads(t *testing.T) {
	const slabs = 8
	c := NewCache(slabs*slabSize, 0)
	fillLarge(t, c)
	small := classOf(600)
	for i := range 20 * slabs * (slabSize / 640) {
		if !cacheBlock(c, 2, uint64(i)*1024, 600, new(atomic.Int32)) {
			t.Fatalf("small block %d not cached", i)
		}
	}
	s := &c.shards[0]
	if got := len(s.owned[small]); got != slabs-1 {
		t.Fatalf("small blocks own %d of %d slabs, want %d", got, slabs, slabs-1)
	}
	if got := len(s.owned[classOf(3000)]); got != 1 {
		t.Fatalf("large blocks own %d slabs, want 1", got)
	}
	if u, max := s.usage.Load(), int64(slabs*slabSize); u > max {
		t.Fatalf("usage %d over the %d budget", u, max)
	}
}

// TestCacheKeepsHotSlabs: large blocks read between the small blocks'
// inserts keep their slabs; the small blocks get the one slab taken from
// them when they had none.
func TestCacheKeepsHotSlabs(t *testing.T) {
	const slabs = 8
	c := NewCache(slabs*slabSize, 0)
	hints := fillLarge(t, c)
	for i := range 10 * slabs * (slabSize / 640) {
		if !cacheBlock(c, 2, uint64(i)*1024, 600, new(atomic.Int32)) {
			t.Fatalf("small block %d not cached", i)
		}
		if i%16 == 0 {
			for j := range hints {
				hitBlock(c, 1, uint64(j)*4096, &hints[j])
			}
		}
	}
	s := &c.shards[0]
	if got := len(s.owned[classOf(600)]); got != 1 {
		t.Fatalf("small blocks own %d slabs, want 1", got)
	}
	if got := len(s.owned[classOf(3000)]); got != slabs-1 {
		t.Fatalf("large blocks own %d slabs, want %d", got, slabs-1)
	}
}
