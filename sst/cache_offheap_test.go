//go:build linux && !race

package sst

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/godbbench/godbbench/internal/codepages"
)

// TestCacheSlabsLiveOffTheHeap fills a 4 MiB cache: its blocks read back
// intact, and the Go heap grows by the slab metadata only, not by the
// blocks.
func TestCacheSlabsLiveOffTheHeap(t *testing.T) {
	const capacity = 4 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c := NewCache(capacity, 0)
	hints := make([]atomic.Int32, 2048)
	n := 0
	for ; n < len(hints) && !c.shards[0].full.Load(); n++ {
		h, b, ok := c.reserve(1, uint64(n)*4096, 1900)
		if !ok {
			t.Fatalf("block %d not cached", n)
		}
		for i := range b {
			b[i] = byte(n + i)
		}
		c.publish(h, &hints[n])
		h.release()
	}
	if got := c.Usage(); got < capacity*9/10 {
		t.Fatalf("cache holds %d bytes after %d blocks, want nearly %d", got, n, capacity)
	}
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > capacity/4 {
		t.Fatalf("Go heap grew %d bytes for a %d-byte cache: slabs are on the heap", grew, capacity)
	}
	for i := 0; i < n; i++ {
		h, b, ok := c.lookup(1, uint64(i)*4096, &hints[i])
		if !ok {
			continue // evicted by the last inserts
		}
		for j := range b {
			if b[j] != byte(i+j) {
				t.Fatalf("block %d byte %d: %d, want %d", i, j, b[j], byte(i+j))
			}
		}
		h.release()
	}
	runtime.KeepAlive(c)
}

// TestCacheRegionUnmappedWhenUnreachable drops a cache and checks its slab
// region leaves the address space once the collector has run.
func TestCacheRegionUnmappedWhenUnreachable(t *testing.T) {
	addr := func() uintptr {
		c := NewCache(2<<20, 0)
		var hint atomic.Int32
		if !cacheBlock(c, 1, 0, 4000, &hint) {
			t.Fatal("block not cached")
		}
		return uintptr(unsafe.Pointer(unsafe.SliceData(c.shards[0].mem)))
	}()
	if !mapped(t, addr) {
		t.Fatal("the slab region of a live cache is not in /proc/self/maps")
	}
	for range 50 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		if !mapped(t, addr) {
			return
		}
	}
	t.Fatal("slab region still mapped after the cache became unreachable")
}

// mapped reports whether addr lies in a mapping of the process.
func mapped(t *testing.T, addr uintptr) bool {
	t.Helper()
	_, found, err := codepages.ResidentAt(addr)
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	return found
}
