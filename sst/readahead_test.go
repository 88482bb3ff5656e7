package sst

import (
	"math/rand/v2"
	"testing"
)

// TestIterReadsAhead checks that a forward scan reading values grows its
// read-ahead window to maxReadahead and holds many pairs per read, that a
// seek elsewhere goes back to one pair, and that every entry read through
// the windows is right (values included).
func TestIterReadsAhead(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	es := randomEntries(rng, 6000, 200)
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BlockSize: 1024})
	r := openTable(t, path, ReaderOptions{})
	defer r.Close()
	if len(r.blocks) < 100 {
		t.Fatalf("only %d pairs; the test needs many", len(r.blocks))
	}
	it := r.NewIter()
	defer it.Close()
	i, widest := 0, 0
	for ok := it.First(); ok; ok = it.Next() {
		checkEntry(t, it, es[i], true)
		widest = max(widest, it.pair.last-it.pair.first+1)
		i++
	}
	if it.Error() != nil || i != len(es) {
		t.Fatalf("scan saw %d of %d entries, err %v", i, len(es), it.Error())
	}
	if it.pair.window != maxReadahead {
		t.Errorf("window after a full scan = %d, want %d", it.pair.window, maxReadahead)
	}
	if widest < 10 {
		t.Errorf("at most %d pairs held by one read, want many", widest)
	}
	mid := len(es) / 2
	for mid > 0 && string(es[mid-1].key) == string(es[mid].key) {
		mid-- // SeekGE lands on a key's newest version
	}
	if !it.SeekGE(es[mid].key) {
		t.Fatal("SeekGE failed")
	}
	checkEntry(t, it, es[mid], true)
	if n := it.pair.last - it.pair.first + 1; n != 1 || it.pair.window != 0 {
		t.Errorf("after a seek: %d pairs held, window %d; want 1 and 0", n, it.pair.window)
	}
}
