//go:build invariants || race

package offsetskiplist

import (
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/invariants/invariantstest"
)

// TestInvariantDuplicateVersion adds one (key, sequence) twice, which the
// memtable contract forbids; the version-chain check must catch it.
func TestInvariantDuplicateVersion(t *testing.T) {
	l := New(1 << 20)
	for _, k := range []string{"a", "c"} {
		if err := l.Add(5, base.KindSet, []byte(k), nil); err != nil {
			t.Fatal(err)
		}
	}
	invariantstest.Fires(t, "added twice", func() { _ = l.Add(5, base.KindDelete, []byte("c"), nil) })
}

// TestInvariantNodeOrder links a node for a key at a position that does
// not bracket it; the level-0 check must catch it.
func TestInvariantNodeOrder(t *testing.T) {
	l := New(1 << 20)
	for _, k := range []string{"a", "c"} {
		if err := l.Add(5, base.KindSet, []byte(k), nil); err != nil {
			t.Fatal(err)
		}
	}
	a := link(l.r.addr(l.head), 0).Load()
	c := link(l.r.addr(a), 0).Load()
	d := lookupFor([]byte("d"))
	invariantstest.Fires(t, "out of order", func() { l.checkFits(&d, a, c) })
}
