package offsetskiplist

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// TestReleaseReusesChunks checks that a released list's regions come back
// zeroed to the next big arena, that a list built on them works, and that a
// use of the released list panics.
func TestReleaseReusesChunks(t *testing.T) {
	old := New(0)
	for i := 0; i < 20000; i++ {
		k := []byte(fmt.Sprintf("key-%06d", i))
		if err := old.Add(uint64(i+1), base.KindSet, k, []byte("some value bytes")); err != nil {
			t.Fatal(err)
		}
	}
	if len(old.a.regions) == 0 {
		t.Skip("no huge-page regions here")
	}
	regions := append(old.a.regions[:0:0], old.a.regions...)
	// What Release does, without its goroutine.
	old.released.Store(true)
	old.detach().release()
	pooled := map[*byte]bool{}
	for _, r := range regions {
		if len(r.Bytes) == bigChunkBytes {
			pooled[&r.Bytes[0]] = true
		}
	}
	fresh := New(0)
	if err := fresh.Add(1, base.KindSet, []byte("new"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	r := fresh.a.regions[0]
	if !pooled[&r.Bytes[0]] {
		t.Fatal("the new arena did not take a released region")
	}
	for i, b := range r.Bytes[fresh.a.cur[streamNodes].Load().used.Load():] {
		if b != 0 {
			t.Fatalf("byte %d past the used part of a reused region is %d", i, b)
		}
	}
	if v, _, ok := fresh.Get([]byte("new"), base.MaxSeq); !ok || string(v) != "v" {
		t.Fatalf("Get = %q, %v", v, ok)
	}
	if _, _, ok := fresh.Get([]byte("key-000001"), base.MaxSeq); ok {
		t.Fatal("a reused region shows the old list's key")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Get on a released list did not panic")
			}
		}()
		old.Get([]byte("key-000001"), base.MaxSeq)
	}()
	fresh.Release()
	fresh.Release()
}
