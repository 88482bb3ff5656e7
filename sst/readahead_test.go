package sst

import (
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// TestIterReadsAhead checks that a forward scan reading values grows its
// read-ahead window to maxReadahead and holds many pairs per read, that a
// seek elsewhere goes back to one pair, and that every entry read through
// the windows is right (values included).
func TestIterReadsAhead(t *testing.T) {
	es, r := manyPairTable(t, 7)
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

// manyPairTable writes 6000 random entries (seeded by seed) in 1 KiB
// blocks, hundreds of pairs, and opens the table without a cache; the
// test's cleanup closes it.
func manyPairTable(t *testing.T, seed uint64) ([]entry, *Reader) {
	t.Helper()
	es := randomEntries(rand.New(rand.NewPCG(seed, seed+1)), 6000, 200)
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BlockSize: 1024})
	r := openTable(t, path, ReaderOptions{})
	t.Cleanup(func() { r.Close() })
	if r.blocks.len() < 100 {
		t.Fatalf("only %d pairs; the test needs many", r.blocks.len())
	}
	return es, r
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

// TestIterReadsAheadBackward checks that a reverse scan reading values
// grows its read-ahead window as a forward one does, each read holding the
// pair asked for and the pairs before it, that every byte of the data
// blocks is read once, and that every entry is right (values included).
func TestIterReadsAheadBackward(t *testing.T) {
	es, r := manyPairTable(t, 15)
	it := r.NewIter()
	defer it.Close()
	charged, reads := 0, 0
	it.SetReadCharge(func(n int) { charged += n; reads++ })
	i, widest := len(es)-1, 0
	for ok := it.Last(); ok; ok = it.Prev() {
		checkEntry(t, it, es[i], true)
		if it.pair.last != it.blk && it.pair.last >= it.pair.first {
			if it.blk < it.pair.first || it.blk > it.pair.last {
				t.Fatalf("entry %d: block %d outside the held pairs %d..%d", i, it.blk, it.pair.first, it.pair.last)
			}
		}
		widest = max(widest, it.pair.last-it.pair.first+1)
		i--
	}
	if it.Error() != nil || i != -1 {
		t.Fatalf("reverse scan stopped at entry %d, err %v", i, it.Error())
	}
	if it.pair.window != maxReadahead {
		t.Errorf("window after a full reverse scan = %d, want %d", it.pair.window, maxReadahead)
	}
	if widest < 10 {
		t.Errorf("at most %d pairs held by one read, want many", widest)
	}
	// The last pair's blocks are read one by one (values not yet asked
	// for), then the pair before alone, then runs down to pair 0.
	lastPair := r.blocks.len() - 1
	want := int(r.pairEnd(lastPair) - r.blocks.at(0).offset)
	if charged != want || reads > r.blocks.len()/5 {
		t.Errorf("charged %d bytes in %d reads, want %d bytes in far fewer than %d reads", charged, reads, want, r.blocks.len())
	}
}

// failingReaderAt fails every read that touches a byte at or past from
// (reaching there, forward) or below to (backward), and records the span
// of the first read that failed.
type failingReaderAt struct {
	io.ReaderAt
	from, to        int64
	failOff, failTo *int64
}

var errInjected = errors.New("injected read error")

func (f failingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	end := off + int64(len(p))
	if end > f.from || off < f.to {
		if *f.failOff < 0 {
			*f.failOff, *f.failTo = off, end
		}
		return 0, errInjected
	}
	return f.ReaderAt.ReadAt(p, off)
}

// TestIterReadAheadErrorStops checks that a read-ahead read that fails, in
// either direction, stops the iterator at once: the entries returned are
// exactly those of the pairs before the failed read's span (in the scan's
// direction), and Next or Prev after it return false with the error kept.
func TestIterReadAheadErrorStops(t *testing.T) {
	es := sequentialEntries(6000)
	path, _ := writeTable(t, t.TempDir(), es, WriterOptions{BlockSize: 1024})
	r := openTable(t, path, ReaderOptions{})
	defer r.Close()
	n := r.blocks.len()
	if n < 60 {
		t.Fatalf("only %d pairs", n)
	}
	clean := r.ra
	defer func() { r.ra = clean }()
	for _, backward := range []bool{false, true} {
		bad := n / 2
		failOff, failTo := int64(-1), int64(-1)
		fr := failingReaderAt{ReaderAt: clean, from: r.size, to: 0, failOff: &failOff, failTo: &failTo}
		if backward {
			fr.to = int64(r.pairEnd(bad))
		} else {
			fr.from = int64(r.blocks.at(bad).offset)
		}
		r.ra = fr
		it := r.NewIter()
		seen := 0
		var ok bool
		if backward {
			ok = it.Last()
		} else {
			ok = it.First()
		}
		for ; ok; seen++ {
			want := es[seen]
			if backward {
				want = es[len(es)-1-seen]
			}
			checkEntry(t, it, want, true)
			if backward {
				ok = it.Prev()
			} else {
				ok = it.Next()
			}
		}
		if !errors.Is(it.Error(), errInjected) {
			t.Fatalf("backward %v: scan ended after %d entries with error %v, want the injected one", backward, seen, it.Error())
		}
		// Exactly the entries of the pairs outside the failed read.
		want := 0
		for _, e := range es {
			d := r.blocks.at(r.findBlock(e.key))
			if (!backward && int64(d.offset) < failOff) || (backward && int64(d.offset) >= failTo) {
				want++
			}
		}
		if seen != want || seen == 0 {
			t.Fatalf("backward %v: %d entries returned, want %d (the failed read spans %d..%d)", backward, seen, want, failOff, failTo)
		}
		if it.Next() || it.Prev() || it.Valid() || !errors.Is(it.Error(), errInjected) {
			t.Fatalf("backward %v: the iterator moved after the error (err %v)", backward, it.Error())
		}
		it.Close()
	}
}

// TestReadaheadBufferMadeOnceAtItsMaximum checks that a scan's read-ahead
// buffer is made at most three times from nothing (one pair, the first
// window, then the largest window) rather than once per doubling of the
// window, and that the bytes made stay within those three sizes.
func TestReadaheadBufferMadeOnceAtItsMaximum(t *testing.T) {
	_, r := manyPairTable(t, 11)
	it := r.NewIter()
	defer it.Close()
	it.pair.buf = nil // not a pooled buffer: count every one the scan makes
	made, bytes := 0, 0
	var last *byte
	for ok := it.First(); ok; ok = it.Next() {
		if _, err := it.Value(); err != nil {
			t.Fatal(err)
		}
		if cap(it.pair.buf) == 0 {
			continue // key blocks alone so far
		}
		if b := it.pair.buf[:1]; &b[0] != last {
			last = &b[0]
			made++
			bytes += cap(it.pair.buf)
		}
	}
	if it.Error() != nil {
		t.Fatal(it.Error())
	}
	if it.pair.window != maxReadahead || cap(it.pair.buf) != maxReadahead {
		t.Errorf("window %d, buffer capacity %d after a full scan; want both %d", it.pair.window, cap(it.pair.buf), maxReadahead)
	}
	if limit := r.maxPair + minReadahead + maxReadahead; made > 3 || bytes > limit {
		t.Errorf("the scan made %d buffers of %d bytes in all; want at most 3 and %d bytes", made, bytes, limit)
	}
}
