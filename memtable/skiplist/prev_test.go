package skiplist

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable/internal/prevtest"
)

// prevKey is key number n as 16 bytes: big-endian n, then 8 bytes of 'k'.
func prevKey(n int) []byte {
	k := []byte("........kkkkkkkk")
	binary.BigEndian.PutUint64(k, uint64(n))
	return k
}

func prevKeyNum(k []byte) int { return int(binary.BigEndian.Uint64(k)) }

// TestPrevLinks adds keys in random order with one writer and checks that
// every node's backward link names its predecessor exactly (the head for
// the first), so Prev takes no search.
func TestPrevLinks(t *testing.T) {
	l := NewSized(1 << 20)
	defer l.Release()
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 3000
	for i, k := range rng.Perm(n) {
		if err := l.Add(uint64(i+1), base.KindSet, prevKey(k), nil); err != nil {
			t.Fatal(err)
		}
	}
	prev := uint32(headRef)
	count := 0
	for x := link(l.r.addr(headRef), 0).Load(); x != 0; x = link(l.r.addr(x), 0).Load() {
		if got := prevLink(l.r.addr(x)).Load(); got != prev {
			t.Fatalf("node %d (key %d): prev link %d, want %d", x, prevKeyNum(keyOf(l.r.addr(x))), got, prev)
		}
		prev = x
		count++
	}
	if count != n {
		t.Fatalf("%d nodes at level 0, want %d", count, n)
	}
}

// TestPrevStaleLink points backward links at earlier nodes, as a lost race
// between concurrent inserts leaves them, at distances below and above the
// forward walk's bound: Prev must still step to the predecessor.
func TestPrevStaleLink(t *testing.T) {
	l := NewSized(1 << 20)
	defer l.Release()
	const n = 100
	for i := 0; i < n; i++ {
		if err := l.Add(uint64(i+1), base.KindSet, prevKey(i), nil); err != nil {
			t.Fatal(err)
		}
	}
	var nodes []uint32
	for x := link(l.r.addr(headRef), 0).Load(); x != 0; x = link(l.r.addr(x), 0).Load() {
		nodes = append(nodes, x)
	}
	for _, back := range []int{2, 3, maxPrevWalk, maxPrevWalk + 1, maxPrevWalk + 5, 60} {
		for _, at := range []int{back - 1, back, n - 1} {
			if at < back-1 || at >= n {
				continue
			}
			stale := uint32(headRef)
			if at-back >= 0 {
				stale = nodes[at-back]
			}
			p := prevLink(l.r.addr(nodes[at]))
			saved := p.Load()
			p.Store(stale)
			it := l.NewIter().(*Iter)
			if !it.Seek(prevKey(at), base.MaxSeq) || prevKeyNum(it.Key()) != at {
				t.Fatalf("Seek(%d) missed", at)
			}
			ok := it.Prev()
			switch {
			case at == 0 && ok:
				t.Fatalf("back %d: Prev from the first key is at %d", back, prevKeyNum(it.Key()))
			case at > 0 && (!ok || prevKeyNum(it.Key()) != at-1):
				t.Fatalf("back %d: Prev from %d: valid %v", back, at, ok)
			}
			p.Store(saved)
		}
	}
}

// TestPrevConcurrentInserts races reverse scans against inserts of new
// keys and of new versions (prevtest). Run it with -race.
func TestPrevConcurrentInserts(t *testing.T) {
	l := NewSized(16 << 20)
	defer l.Release()
	prevtest.ConcurrentInserts(t, l, 4, 3000)
}
