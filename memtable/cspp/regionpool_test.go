package cspp

import (
	"testing"

	"github.com/godbbench/godbbench/memtable"
)

// TestReleaseReusesArena checks that a released trie's region comes back
// zeroed to the next trie of the same size, that the new trie works on it,
// and that a use of the released trie panics instead of reading the new
// one's memory.
func TestReleaseReusesArena(t *testing.T) {
	const memCap = hugeArenaBytes
	old := New(memCap)
	if old.region == nil {
		t.Skip("no off-heap region here (mapping refused)")
	}
	for i := 0; i < 1000; i++ {
		k := []byte{byte(i >> 8), byte(i), 'k'}
		if err := old.Add(uint64(i+1), memtable.KindSet, k, []byte("value-bytes")); err != nil {
			t.Fatal(err)
		}
	}
	region := old.region
	used := old.a.used() * 4
	regions.put(region, used) // what Release does, without its goroutine
	old.released.Store(true)
	old.cleanup.Stop()
	old.region, old.a.slots, old.a.bytes = nil, nil, nil

	fresh := New(memCap)
	if fresh.region != region {
		t.Fatal("the released region was not reused")
	}
	for i, b := range region.Bytes[:used] {
		if b != 0 && i >= int(firstFreeSlot)*4 {
			t.Fatalf("byte %d of the reused region is %d, want 0", i, b)
		}
	}
	if _, _, ok := fresh.Get([]byte{0, 1, 'k'}, memtable.MaxSeq); ok {
		t.Fatal("a reused arena shows the old trie's key")
	}
	if err := fresh.Add(1, memtable.KindSet, []byte("new"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	if v, _, ok := fresh.Get([]byte("new"), memtable.MaxSeq); !ok || string(v) != "v" {
		t.Fatalf("Get on the reused arena = %q, %v", v, ok)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Get on a released trie did not panic")
			}
		}()
		old.Get([]byte{0, 1, 'k'}, memtable.MaxSeq)
	}()
	fresh.Release()
	fresh.Release() // a second call does nothing
}

// TestRegionPoolBound checks that the pool keeps at most maxPooledRegions
// regions, dropping the oldest, and only hands out exact sizes.
func TestRegionPoolBound(t *testing.T) {
	var p regionPool
	a, b, c := New(hugeArenaBytes), New(hugeArenaBytes), New(2*hugeArenaBytes)
	if a.region == nil || b.region == nil || c.region == nil {
		t.Skip("no off-heap regions here")
	}
	p.put(a.region, 0)
	p.put(b.region, 0)
	p.put(c.region, 0)
	if len(p.free) != maxPooledRegions {
		t.Fatalf("pool holds %d regions, want %d", len(p.free), maxPooledRegions)
	}
	if r := p.get(3 * hugeArenaBytes); r != nil {
		t.Fatal("got a region of another size")
	}
	if r := p.get(2 * hugeArenaBytes); r != c.region {
		t.Fatal("did not get the region of the size asked for")
	}
	for _, tr := range []*Trie{a, b, c} {
		tr.cleanup.Stop() // the pool owns (or freed) the regions now
	}
}
