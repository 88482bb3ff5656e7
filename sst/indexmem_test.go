package sst

import "testing"

// TestIndexSeparatorsKeepNoSlack: an open table keeps its index's
// separators for its life, in a buffer within an eighth of their size
// (they are appended as decoded, which grows the buffer by doubling).
func TestIndexSeparatorsKeepNoSlack(t *testing.T) {
	for _, n := range []int{3000, 20000, 50000} {
		path, _ := writeTable(t, t.TempDir(), sequentialEntries(n), WriterOptions{})
		r := openTable(t, path, ReaderOptions{})
		if len(r.blocks) < 10 {
			t.Fatalf("%d entries: only %d blocks", n, len(r.blocks))
		}
		if l, c := len(r.seps), cap(r.seps); c-l > l/8 {
			t.Errorf("%d entries, %d blocks: separators take %d bytes of a %d-byte buffer", n, len(r.blocks), l, c)
		}
	}
}
