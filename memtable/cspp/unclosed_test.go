//go:build invariants || race

package cspp

import (
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// TestReleaseReportsUnclosedIter: with invariants on, releasing a trie while
// an iterator still holds its registration (valid and never closed) is
// reported; after Close, or once the iterator ran off the end, it is not.
func TestReleaseReportsUnclosedIter(t *testing.T) {
	release := func(tr *Trie) (msg string) {
		defer func() {
			if r := recover(); r != nil {
				msg, _ = r.(string)
			}
		}()
		tr.Release()
		return ""
	}
	fill := func() *Trie {
		tr := New(1 << 20)
		for i, k := range []string{"a", "b", "c"} {
			if err := tr.Add(uint64(i+1), base.KindSet, []byte(k), nil); err != nil {
				t.Fatal(err)
			}
		}
		return tr
	}
	tr := fill()
	it := tr.NewIter()
	it.First()
	if msg := release(tr); !strings.Contains(msg, "an iterator was not closed") {
		t.Fatalf("Release with an unclosed iterator: %q", msg)
	}
	tr = fill()
	it = tr.NewIter()
	it.Seek([]byte("b"), base.MaxSeq)
	it.(*Iter).Close()
	ran := tr.NewIter()
	for ok := ran.First(); ok; ok = ran.Next() {
	}
	if msg := release(tr); msg != "" {
		t.Fatalf("Release after Close and a full scan: %q", msg)
	}
}
