//go:build invariants || race

package skiplist

import (
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/invariants/invariantstest"
)

// TestInvariantInsertOrder adds one (key, sequence) twice, which the
// memtable contract forbids; the insert-order check must catch it.
func TestInvariantInsertOrder(t *testing.T) {
	l := NewSized(1 << 20)
	defer l.Release()
	for _, k := range []string{"a", "c"} {
		if err := l.Add(5, base.KindSet, []byte(k), nil); err != nil {
			t.Fatal(err)
		}
	}
	invariantstest.Fires(t, "out of order", func() { _ = l.Add(5, base.KindSet, []byte("c"), []byte("again")) })
}
