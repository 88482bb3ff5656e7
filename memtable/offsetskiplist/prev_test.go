package offsetskiplist

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable/internal/prevtest"
)

// numKey is n as an 8-byte big-endian key (memtablerep_bench's shape, so
// sameKey's 8-byte path is the one taken).
func numKey(n int) []byte { return binary.BigEndian.AppendUint64(nil, uint64(n)) }

func keyNum(k []byte) int { return int(binary.BigEndian.Uint64(k)) }

// levelZero returns the nodes at level 0 in order.
func levelZero(l *List) []uint32 {
	var nodes []uint32
	for x := link(l.r.addr(l.head), 0).Load(); x != 0; x = link(l.r.addr(x), 0).Load() {
		nodes = append(nodes, x)
	}
	return nodes
}

// TestBackLinksExact adds keys in random order from one goroutine: every
// node's back link must then name its level-0 predecessor (the head for
// the first node), so that Prev never walks or searches.
func TestBackLinksExact(t *testing.T) {
	l := New(1 << 20)
	defer l.Release()
	const n = 5000
	for i, k := range rand.New(rand.NewPCG(5, 6)).Perm(n) {
		if err := l.Add(uint64(i+1), base.KindSet, numKey(k), nil); err != nil {
			t.Fatal(err)
		}
	}
	nodes := levelZero(l)
	if len(nodes) != n {
		t.Fatalf("%d nodes at level 0, want %d", len(nodes), n)
	}
	want := l.head
	for i, x := range nodes {
		if got := prevLink(l.r.addr(x)).Load(); got != want {
			t.Fatalf("node %d (key %d): back link %d, want %d", i, keyNum(keyOf(l.r.addr(x))), got, want)
		}
		want = x
	}
}

// TestPrevFromStaleBackLink points back links at earlier nodes, as two
// inserts next to each other can leave them, at distances inside and past
// the forward walk's bound, and at the head: Prev must still reach the
// predecessor, and from the first key, nothing.
func TestPrevFromStaleBackLink(t *testing.T) {
	l := New(1 << 20)
	defer l.Release()
	const n = 64
	for i := range n {
		if err := l.Add(uint64(i+1), base.KindSet, numKey(i), nil); err != nil {
			t.Fatal(err)
		}
	}
	nodes := levelZero(l)
	for _, back := range []int{1, 2, maxPrevWalk - 1, maxPrevWalk, maxPrevWalk + 1, 40} {
		for _, at := range []int{0, back - 1, back, n - 1} {
			if at < 0 || at >= n || at-back < -1 {
				continue
			}
			stale := l.head
			if at-back >= 0 {
				stale = nodes[at-back]
			}
			pl := prevLink(l.r.addr(nodes[at]))
			saved := pl.Load()
			pl.Store(stale)
			it := l.NewIter()
			if !it.Seek(numKey(at), base.MaxSeq) || keyNum(it.Key()) != at {
				t.Fatalf("Seek(%d) missed", at)
			}
			ok := it.Prev()
			if at == 0 && ok {
				t.Fatalf("back %d: Prev from the first key is at %d", back, keyNum(it.Key()))
			}
			if at > 0 && (!ok || keyNum(it.Key()) != at-1) {
				t.Fatalf("back %d: Prev from %d: valid %v", back, at, ok)
			}
			pl.Store(saved)
		}
	}
}

// TestPrevAcrossVersions steps back over keys with several versions: Prev
// from a key's newest version lands on the previous key's oldest one, and
// the reverse scan gives every version, oldest first within a key.
func TestPrevAcrossVersions(t *testing.T) {
	l := New(1 << 20)
	defer l.Release()
	const n = 50
	seqs := make([][]uint64, n) // each key's sequences, oldest first
	seq := uint64(0)
	for round := range 4 {
		for k := range n {
			if round > k%4 {
				continue
			}
			seq++
			if err := l.Add(seq, base.KindSet, numKey(k), nil); err != nil {
				t.Fatal(err)
			}
			seqs[k] = append(seqs[k], seq)
		}
	}
	var want, got []string
	for k := n - 1; k >= 0; k-- {
		for _, s := range seqs[k] {
			want = append(want, fmt.Sprint(k, "@", s))
		}
	}
	it := l.NewIter()
	for ok := it.Last(); ok; ok = it.Prev() {
		got = append(got, fmt.Sprint(keyNum(it.Key()), "@", it.Seq()))
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("reverse scan\n %v\nwant\n %v", got, want)
	}
}

// TestPrevConcurrentInserts races reverse scans against inserts of new
// keys and of new versions (prevtest). Run it with -race.
func TestPrevConcurrentInserts(t *testing.T) {
	l := New(16 << 20)
	defer l.Release()
	prevtest.ConcurrentInserts(t, l, 4, 2000)
}
