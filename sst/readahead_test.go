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

// TestIterWithoutFillingCache scans a table with SetFillCache(false), as a
// compaction reads its inputs: every entry is right, values included, and
// the cache stays empty; a default scan then fills it, and a third scan
// without filling finds the cached blocks (same entries) and adds nothing.
func TestIterWithoutFillingCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	es := randomEntries(rng, 3000, 200)
	for _, comp := range []Compression{CompressionNone, CompressionSnappy} {
		path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BlockSize: 1024, Compression: comp})
		cache := NewCache(64<<20, 0)
		r := openTable(t, path, ReaderOptions{Cache: cache, FileNum: 1})
		scan := func(fill bool) {
			t.Helper()
			it := r.NewIter()
			defer it.Close()
			it.SetFillCache(fill)
			i := 0
			for ok := it.First(); ok; ok = it.Next() {
				checkEntry(t, it, es[i], true)
				i++
			}
			if it.Error() != nil || i != len(es) {
				t.Fatalf("%v, fill %v: scan saw %d of %d entries, err %v", comp, fill, i, len(es), it.Error())
			}
		}
		scan(false)
		if u := cache.Usage(); u != 0 {
			t.Fatalf("%v: a scan without filling left %d bytes in the cache", comp, u)
		}
		scan(true)
		filled := cache.Usage()
		if filled == 0 {
			t.Fatalf("%v: a default scan left the cache empty", comp)
		}
		scan(false)
		if u := cache.Usage(); u != filled {
			t.Fatalf("%v: cache usage %d after a scan without filling, want %d", comp, u, filled)
		}
		r.Close()
	}
}
