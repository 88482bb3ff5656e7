package cspp

import (
	"testing"

	"github.com/godbbench/godbbench/internal/base"
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
		if err := old.Add(uint64(i+1), base.KindSet, k, []byte("value-bytes")); err != nil {
			t.Fatal(err)
		}
	}
	region := old.region
	used := old.a.used() * 4
	regions.Put(region, int(used)) // what Release does, without its goroutine
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
	if _, _, ok := fresh.Get([]byte{0, 1, 'k'}, base.MaxSeq); ok {
		t.Fatal("a reused arena shows the old trie's key")
	}
	if err := fresh.Add(1, base.KindSet, []byte("new"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	if v, _, ok := fresh.Get([]byte("new"), base.MaxSeq); !ok || string(v) != "v" {
		t.Fatalf("Get on the reused arena = %q, %v", v, ok)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Get on a released trie did not panic")
			}
		}()
		old.Get([]byte{0, 1, 'k'}, base.MaxSeq)
	}()
	fresh.Release()
	fresh.Release() // a second call does nothing
}
