package skiplist

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable/internal/indextest"
	"github.com/godbbench/godbbench/memtable/internal/levelindex"
	"github.com/godbbench/godbbench/memtable/internal/splicecache"
)

// checkSeeks compares Seek on l with a binary search in sorted for every
// key of sorted and for keys between them.
func checkSeeks(t *testing.T, l *List, sorted [][]byte) {
	t.Helper()
	it := l.NewIter()
	try := func(target []byte) {
		i, _ := slices.BinarySearchFunc(sorted, target, bytes.Compare)
		ok := it.Seek(target, base.MaxSeq)
		if ok != (i < len(sorted)) {
			t.Fatalf("Seek(%x) = %v, want %v", target, ok, i < len(sorted))
		}
		if ok && !bytes.Equal(it.Key(), sorted[i]) {
			t.Fatalf("Seek(%x) found %x, want %x", target, it.Key(), sorted[i])
		}
	}
	for _, k := range sorted {
		try(k)
		try(append(slices.Clip(k), 1))
		try(k[:len(k)-1])
	}
	try(nil)
	try(bytes.Repeat([]byte{0xff}, 12))
}

// TestUpperIndex checks that the index is built once the list has
// levelindex.MinLen entries, that it holds exactly the nodes of level indexLevel
// it found, in order, and that a search's starting point from it sorts
// before the key and its known-bigger node after it.
func TestUpperIndex(t *testing.T) {
	l := NewSized(8 << 20)
	defer l.Release()
	const n = 40000
	var sorted [][]byte
	for i, k := range rand.New(rand.NewPCG(5, 6)).Perm(n) {
		key := indextest.Key(k)
		sorted = append(sorted, key)
		if err := l.Add(uint64(i+1), base.KindSet, key, nil); err != nil {
			t.Fatal(err)
		}
		if i+1 == levelindex.MinLen-1 && l.index.Load() != nil {
			t.Fatalf("index built at %d entries", i+1)
		}
		if i+1 == levelindex.MinLen && l.index.Load() == nil {
			t.Fatalf("no index at %d entries", i+1)
		}
	}
	slices.SortFunc(sorted, bytes.Compare)
	ix := l.index.Load()
	if at := l.index.NextAt(); at <= n || at > n+n/2+1 {
		t.Fatalf("next build at %d entries with %d in the list", at, n)
	}
	// Every indexed node is the next level-indexLevel node of the one
	// before it, or was when the index was built: its prefix is right and
	// the prefixes do not decrease.
	levelNodes := map[uint32]bool{}
	for x := link(l.r.addr(headRef), indexLevel).Load(); x != 0; x = link(l.r.addr(x), indexLevel).Load() {
		levelNodes[x] = true
	}
	if ix.Len() < n/(4*16) || ix.Len() > len(levelNodes) {
		t.Fatalf("%d nodes indexed, %d at level %d", ix.Len(), len(levelNodes), indexLevel)
	}
	for i := range ix.Len() {
		x := ix.Node(i)
		if !levelNodes[x] {
			t.Fatalf("indexed node %d is not at level %d", x, indexLevel)
		}
		if ix.Prefix(i) != base.KeyPrefix(keyOf(l.r.addr(x))) {
			t.Fatalf("indexed node %d: prefix %x, key %x", x, ix.Prefix(i), keyOf(l.r.addr(x)))
		}
		if i > 0 && ix.Prefix(i) < ix.Prefix(i-1) {
			t.Fatalf("prefixes decrease at %d", i)
		}
	}
	if got, min := l.ApproximateMemoryUsage(), l.a.allocated.Load()+uint64(ix.Len())*12; got < min {
		t.Fatalf("memory usage %d leaves out the index (at least %d)", got, min)
	}
	checkStarts(t, l, sorted)
	checkSeeks(t, l, sorted)
}

// pastIndex reports whether every indexed node sorts before t (not after
// it, orEqual): a search for t then starts from the head at the top level.
func pastIndex(l *List, t *lookup, orEqual bool) bool {
	ix := l.index.Load()
	if ix.Len() == 0 {
		return true
	}
	c := cmp(l.r.addr(ix.Node(ix.Len()-1)), t)
	return c < 0 || orEqual && c == 0
}

// checkStarts checks that the search for each key of sorted, and for a key
// right after it, starts from the last indexed node before it (the head if
// none) and takes the indexed node after that as known to sort at or after
// it; past the last indexed node, from the head at the top level.
func checkStarts(t *testing.T, l *List, sorted [][]byte) {
	t.Helper()
	ix := l.index.Load()
	pos := map[uint32]int{headRef: -1}
	for i := range ix.Len() {
		pos[ix.Node(i)] = i
	}
	for _, k := range sorted {
		for _, target := range [][]byte{k, append(slices.Clip(k), 0)} {
			lk := lookup{Key: target, Prefix: base.KeyPrefix(target), Trailer: base.SeekTrailer(base.MaxSeq)}
			from, level, bigger := l.searchStart(&lk, false, false)
			if pastIndex(l, &lk, false) {
				if from != headRef || level != int(l.height.Load())-1 || bigger != 0 {
					t.Fatalf("search for %x past the index starts at %d, level %d", target, from, level)
				}
				continue
			}
			if level != indexLevel {
				t.Fatalf("search starts at level %d", level)
			}
			x := l.r.addr(from)
			i, ok := pos[from]
			if !ok {
				t.Fatalf("search for %x starts at %x, not an indexed node", target, keyOf(x))
			}
			if i >= 0 && cmp(x, &lk) >= 0 {
				t.Fatalf("search for %x starts at %x", target, keyOf(x))
			}
			switch {
			case i+1 < ix.Len() && bigger != ix.Node(i+1):
				t.Fatalf("search for %x: bigger %d, want the next indexed node %d", target, bigger, ix.Node(i+1))
			case i+1 == ix.Len() && bigger != 0:
				t.Fatalf("search for %x: bigger %d after the last indexed node", target, bigger)
			case bigger != 0 && cmp(l.r.addr(bigger), &lk) < 0:
				t.Fatalf("search for %x takes %x as bigger", target, keyOf(l.r.addr(bigger)))
			}
		}
	}
}

// TestUpperIndexOnePrefix: with every key sharing its first 8 bytes, the
// search still starts next to the key (a walk of level indexLevel from the
// head would take a quarter of the list per search).
func TestUpperIndexOnePrefix(t *testing.T) {
	l := NewSized(8 << 20)
	defer l.Release()
	const n = 20000
	fillList(t, l, n, "p")
	var sorted [][]byte
	for i := range n {
		k, _ := testEntry(i, "p")
		sorted = append(sorted, k)
	}
	checkStarts(t, l, sorted)
	checkList(t, l, n, "p")
}

// TestUpperIndexStale checks searches through an index that misses most of
// the list: nodes added after its build are found by the walk.
func TestUpperIndexStale(t *testing.T) {
	l := NewSized(8 << 20)
	defer l.Release()
	const n = 30000
	perm := rand.New(rand.NewPCG(7, 8)).Perm(n)
	var sorted [][]byte
	for i, k := range perm {
		if i == levelindex.MinLen {
			l.index.Stop() // no more builds
		}
		key := indextest.Key(k)
		sorted = append(sorted, key)
		if err := l.Add(uint64(i+1), base.KindSet, key, nil); err != nil {
			t.Fatal(err)
		}
	}
	if l.index.Load() == nil {
		t.Fatal("no index")
	}
	slices.SortFunc(sorted, bytes.Compare)
	checkSeeks(t, l, sorted)
}

// TestUpperIndexConcurrent runs Adds on several goroutines across index
// builds while others seek: every key added before a seek began is found
// (run with -race).
func TestUpperIndexConcurrent(t *testing.T) {
	l := NewSized(8 << 20)
	defer l.Release()
	const writers, per = 3, 6000
	var done sync.WaitGroup
	stop := make(chan struct{})
	var seekers sync.WaitGroup
	for s := range 2 {
		seekers.Add(1)
		go func() {
			defer seekers.Done()
			it := l.NewIter()
			rng := rand.New(rand.NewPCG(uint64(s), 9))
			for {
				select {
				case <-stop:
					return
				default:
				}
				k := indextest.Key(rng.IntN(writers * per))
				if it.Seek(k, base.MaxSeq) && bytes.Compare(it.Key(), k) < 0 {
					t.Errorf("Seek(%x) found the smaller %x", k, it.Key())
					return
				}
			}
		}()
	}
	for w := range writers {
		done.Add(1)
		go func() {
			defer done.Done()
			for i := w; i < writers*per; i += writers {
				if err := l.Add(uint64(i+1), base.KindSet, indextest.Key(i), nil); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	done.Wait()
	close(stop)
	seekers.Wait()
	var sorted [][]byte
	for i := range writers * per {
		sorted = append(sorted, indextest.Key(i))
	}
	slices.SortFunc(sorted, bytes.Compare)
	checkSeeks(t, l, sorted)
}

// TestIndexConcurrent runs Adds of new keys and versions on several
// goroutines across the index's builds, with a reader, then checks every
// search (run with -race).
func TestIndexConcurrent(t *testing.T) {
	l := NewSized(8 << 20)
	defer l.Release()
	indextest.Concurrent(t, l, 3, 30000, func() bool { return l.index.Load() != nil })
}

// TestSpliceFromIndex checks that an insert's splice search starts from
// the index for a node of height at most indexLevel+1, brackets the key at
// indexLevel, and that the inserts of random keys keep such a splice; a
// higher node's search starts from the head.
func TestSpliceFromIndex(t *testing.T) {
	l := NewSized(8 << 20)
	defer l.Release()
	const n = 20000
	rng := rand.New(rand.NewPCG(3, 4))
	for i, k := range rng.Perm(n) {
		if err := l.Add(uint64(i+1), base.KindSet, indextest.Key(2*k), nil); err != nil {
			t.Fatal(err)
		}
	}
	maxH := int(l.height.Load())
	for i := range 2000 {
		k := indextest.Key(2*rng.IntN(n) + 1)
		lk := lookup{Key: k, Prefix: base.KeyPrefix(k), Trailer: base.MakeTrailer(uint64(n+i), base.KindSet)}
		var sp splice
		want := indexLevel
		if pastIndex(l, &lk, false) {
			want = maxH - 1
		}
		if got := l.restartSplice(&lk, &sp, maxH, 1); got != want || sp.height != want+1 {
			t.Fatalf("splice search for %x from level %d, height %d", k, got, sp.height)
		}
		p, x := sp.prev[want], sp.next[want]
		if link(l.r.addr(p), want).Load() != x || p != headRef && cmp(l.r.addr(p), &lk) >= 0 ||
			x != 0 && cmp(l.r.addr(x), &lk) < 0 {
			t.Fatalf("splice for %x does not bracket it at level %d", k, want)
		}
		if got := l.restartSplice(&lk, &sp, maxH, indexLevel+2); got != maxH || sp.height != maxH {
			t.Fatalf("splice search for a node of height %d from level %d", indexLevel+2, got)
		}
	}
	short := 0
	for i := range 200 {
		k := indextest.Key(2*rng.IntN(n) + 1)
		if err := l.Add(uint64(2*n+i), base.KindSet, k, nil); err != nil {
			t.Fatal(err)
		}
		for i := range splicecache.Slots {
			if l.splices.Slot(i).height == indexLevel+1 {
				short++
			}
		}
	}
	if short == 0 {
		t.Fatal("no insert found its splice through the index")
	}
}

// TestFindLastFromIndex checks where Last and SeekForPrev start: the last
// indexed node, and the last indexed node not after the key.
func TestFindLastFromIndex(t *testing.T) {
	l := NewSized(8 << 20)
	defer l.Release()
	const n = 20000
	for i, k := range rand.New(rand.NewPCG(5, 7)).Perm(n) {
		if err := l.Add(uint64(i+1), base.KindSet, indextest.Key(k), nil); err != nil {
			t.Fatal(err)
		}
	}
	ix := l.index.Load()
	if from, level, _ := l.searchStart(nil, false, true); level != indexLevel || from != ix.Node(ix.Len()-1) {
		t.Fatalf("Last starts at level %d", level)
	}
	it := l.NewIter().(*Iter)
	for ok := it.First(); ok; ok = it.Next() {
		lk := lookupOf(it.p)
		from, level, bigger := l.searchStart(&lk, true, false)
		if pastIndex(l, &lk, true) {
			if from != headRef || level != int(l.height.Load())-1 || bigger != 0 {
				t.Fatalf("SeekForPrev(%x) past the index starts at %d, level %d", it.Key(), from, level)
			}
			continue
		}
		if level != indexLevel || from != headRef && cmp(l.r.addr(from), &lk) > 0 ||
			bigger != 0 && cmp(l.r.addr(bigger), &lk) <= 0 {
			t.Fatalf("SeekForPrev(%x) starts at level %d from a node after it or before a node not after it", it.Key(), level)
		}
	}
}

// TestAddWritesApart checks that the count and the splice every Add
// writes are at least a cache line pair past the height, the last field a
// search reads before them.
func TestAddWritesApart(t *testing.T) {
	var l List
	if unsafe.Offsetof(l.count) < unsafe.Offsetof(l.height)+levelindex.Pad {
		t.Fatalf("count at %d, height at %d", unsafe.Offsetof(l.count), unsafe.Offsetof(l.height))
	}
}
