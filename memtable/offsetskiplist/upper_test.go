package offsetskiplist

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable/internal/indextest"
	"github.com/godbbench/godbbench/memtable/internal/levelindex"
	"github.com/godbbench/godbbench/memtable/internal/splicecache"
)

// indexedList is a list of n keys, the even ones of indextest.Key, added
// in random order.
func indexedList(t *testing.T, n int, rng *rand.Rand) *List {
	l := New(64 << 20)
	for i, k := range rng.Perm(n) {
		if err := l.Add(uint64(i+1), base.KindSet, indextest.Key(2*k), nil); err != nil {
			t.Fatal(err)
		}
	}
	if l.index.Load() == nil {
		t.Fatal("no index")
	}
	return l
}

// TestIndexConcurrent runs Adds of new keys and versions on several
// goroutines across the index's builds, with a reader, then checks every
// search (run with -race).
func TestIndexConcurrent(t *testing.T) {
	l := New(64 << 20)
	defer l.Release()
	indextest.Concurrent(t, l, 3, 30000, func() bool { return l.index.Load() != nil })
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

// TestIndexStarts checks where searches start: an insert's splice search
// from the index for a node of height at most indexLevel+1, bracketing the
// key at indexLevel, and inserts of random keys keep such a splice (a
// higher node's search starts from the head); Last from the last indexed
// node; SeekForPrev from the last indexed node not after the key; a key
// past the last indexed node from the head at the top level.
func TestIndexStarts(t *testing.T) {
	const n = 20000
	rng := rand.New(rand.NewPCG(3, 4))
	l := indexedList(t, n, rng)
	defer l.Release()
	maxH := int(l.height.Load())
	for range 2000 {
		lk := lookupFor(indextest.Key(2*rng.IntN(n) + 1))
		var sp splice
		want := indexLevel
		if pastIndex(l, &lk, false) {
			want = maxH - 1
		}
		if got := l.restartSplice(&lk, &sp, maxH, 1); got != want || sp.height != want+1 {
			t.Fatalf("splice search for %x from level %d, height %d", lk.key, got, sp.height)
		}
		p, x := sp.prev[want], sp.next[want]
		if link(l.r.addr(p), want).Load() != x || p != l.head && cmp(l.r.addr(p), &lk) >= 0 ||
			x != 0 && cmp(l.r.addr(x), &lk) < 0 {
			t.Fatalf("splice for %x does not bracket it at level %d", lk.key, want)
		}
		if got := l.restartSplice(&lk, &sp, maxH, indexLevel+2); got != maxH || sp.height != maxH {
			t.Fatalf("splice search for a node of height %d from level %d", indexLevel+2, got)
		}
		lk = lookupFor(indextest.Key(2 * rng.IntN(n)))
		from, level, bigger := l.searchStart(&lk, true, false)
		if pastIndex(l, &lk, true) {
			if from != l.head || level != maxH-1 || bigger != 0 {
				t.Fatalf("SeekForPrev(%x) past the index starts at %d, level %d", lk.key, from, level)
			}
		} else if level != indexLevel || from != l.head && cmp(l.r.addr(from), &lk) > 0 ||
			bigger != 0 && cmp(l.r.addr(bigger), &lk) <= 0 {
			t.Fatalf("SeekForPrev(%x) starts at level %d from a node after it or before a node not after it", lk.key, level)
		}
	}
	ix := l.index.Load()
	if from, level, _ := l.searchStart(nil, false, true); level != indexLevel || from != ix.Node(ix.Len()-1) {
		t.Fatalf("Last starts at level %d", level)
	}
	short := 0
	for i := range 200 {
		if err := l.Add(uint64(2*n+i), base.KindSet, indextest.Key(2*rng.IntN(n)+1), nil); err != nil {
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

// TestWriterFieldsPadded: Add's count and splices start a cache line
// pair after seqBase, which every Get reads.
func TestWriterFieldsPadded(t *testing.T) {
	var l List
	if gap := unsafe.Offsetof(l.count) - unsafe.Offsetof(l.seqBase); gap < levelindex.Pad {
		t.Fatalf("seqBase and count %d bytes apart", gap)
	}
}
