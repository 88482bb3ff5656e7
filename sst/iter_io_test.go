package sst

import (
	"math/rand/v2"
	"testing"
)

// TestIterFixedReadahead checks that SetReadahead makes every read of the
// iterator, the first one and the one after a seek included, take the
// pairs within the fixed window, and that entries stay right.
func TestIterFixedReadahead(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	es := randomEntries(rng, 6000, 200)
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BlockSize: 1024})
	r := openTable(t, path, ReaderOptions{})
	defer r.Close()
	const fixed = 64 << 10
	it := r.NewIter()
	defer it.Close()
	it.SetReadahead(fixed)
	// wantHeld is how many pairs a read at pair i holds.
	wantHeld := func(i int) int {
		last := i
		for last+1 < r.blocks.len() && r.pairEnd(last+1)-r.blocks.at(i).offset <= fixed {
			last++
		}
		return last - i + 1
	}
	i := 0
	for ok := it.First(); ok; ok = it.Next() {
		checkEntry(t, it, es[i], true)
		if it.pair.set && it.pair.last >= it.pair.first {
			if it.pair.window != fixed {
				t.Fatalf("entry %d: window %d, want the fixed %d", i, it.pair.window, fixed)
			}
			if got, want := it.pair.last-it.pair.first+1, wantHeld(it.pair.first); got != want {
				t.Fatalf("a read at pair %d held %d pairs, want %d", it.pair.first, got, want)
			}
		}
		i++
	}
	if it.Error() != nil || i != len(es) {
		t.Fatalf("scan saw %d of %d entries, err %v", i, len(es), it.Error())
	}
	mid := len(es) / 2
	for mid > 0 && string(es[mid-1].key) == string(es[mid].key) {
		mid--
	}
	if !it.SeekGE(es[mid].key) {
		t.Fatal("SeekGE failed")
	}
	checkEntry(t, it, es[mid], true)
	if got, want := it.pair.last-it.pair.first+1, wantHeld(it.pair.first); got != want || want < 2 {
		t.Fatalf("after a seek: %d pairs held, want %d (more than one)", got, want)
	}
	// Back to the adaptive window: a jump reads one pair.
	it.SetReadahead(0)
	q := len(es) / 4
	for q > 0 && string(es[q-1].key) == string(es[q].key) {
		q--
	}
	if !it.SeekGE(es[q].key) {
		t.Fatal("SeekGE failed")
	}
	checkEntry(t, it, es[q], true)
	if n := it.pair.last - it.pair.first + 1; n != 1 || it.pair.window != 0 {
		t.Fatalf("adaptive again, after a seek: %d pairs held, window %d; want 1 and 0", n, it.pair.window)
	}
}

// TestIterReadCharge checks that the charge sees every byte the iterator
// reads: a value scan reads pair 0 block by block, then everything after
// it in runs, so every byte of the data blocks once.
func TestIterReadCharge(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	es := randomEntries(rng, 3000, 200)
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BlockSize: 1024})
	r := openTable(t, path, ReaderOptions{})
	defer r.Close()
	it := r.NewIter()
	defer it.Close()
	charged, reads := 0, 0
	it.SetReadCharge(func(n int) { charged += n; reads++ })
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		checkEntry(t, it, es[n], true)
		n++
	}
	if n != len(es) {
		t.Fatalf("scan saw %d of %d entries", n, len(es))
	}
	want := int(r.pairEnd(r.blocks.len()-1) - r.blocks.at(0).offset)
	if charged != want || reads < 3 {
		t.Fatalf("charged %d bytes in %d reads, want %d: every data block", charged, reads, want)
	}
}
