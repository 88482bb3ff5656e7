package cspp

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// TestIterHoldsRegistration checks when an iterator holds its registration:
// from the call that positions it while it stays valid, through Next and
// Prev; not after a step or a positioning call that leaves it invalid, nor
// after Close, which may be called again and keeps the entry readable; and
// again once a closed iterator moves.
func TestIterHoldsRegistration(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	tr := New(8 << 20)
	m := fillRandom(t, tr, rng, 3000)
	held := func(op string, want int) {
		t.Helper()
		if n := tr.a.rc.ep.registered(); n != want {
			t.Fatalf("%s: %d registrations, want %d", op, n, want)
		}
	}
	it := tr.NewIter().(*Iter)
	held("new iterator", 0)
	i := len(m) / 3
	checkAt(t, "Seek", it, it.Seek([]byte(m[i].key), m[i].seq), m, i)
	held("Seek", 1)
	for j := 0; j < 40; j++ {
		i++
		checkAt(t, "Next", it, it.Next(), m, i)
	}
	i--
	checkAt(t, "Prev", it, it.Prev(), m, i)
	held("Next and Prev", 1)
	it.Close()
	held("Close", 0)
	it.Close()
	held("second Close", 0)
	checkAt(t, "after Close", it, true, m, i)
	i++
	checkAt(t, "Next after Close", it, it.Next(), m, i)
	held("Next after Close", 1)
	other := tr.NewIter()
	checkAt(t, "First", other, other.First(), m, 0)
	held("two iterators", 2)
	for ok := other.Next(); ok; ok = other.Next() {
	}
	held("scan to the end", 1)
	if other.Next() || other.Prev() {
		t.Fatal("an exhausted iterator moved")
	}
	held("steps of an exhausted iterator", 1)
	if it.Seek([]byte("\xff\xff\xff\xff\xff\xff\xff\xff\xff"), 0) {
		t.Fatal("Seek past the last key found an entry")
	}
	held("Seek past the end", 0)
	checkAt(t, "Last", it, it.Last(), m, len(m)-1)
	it.steps = 3 // renew every 3 steps
	for j := len(m) - 2; j >= len(m)-20; j-- {
		checkAt(t, "Prev renewing", it, it.Prev(), m, j)
		held("Prev renewing", 1)
	}
	it.Close()
	held("the end", 0)
}

// TestHeldIterBlocksReuse parks a valid iterator without closing it while
// writers replace the nodes on its path and reclamation passes run: the
// epoch must not move more than one past its registration's, so nothing
// retired meanwhile is reused, and the iterator walks on from the offsets
// it kept. After Close the same load is reused. Without a registration held
// between calls (the parked iterator of TestIterAcrossReclaim) the epoch
// moves and runs are reused at once.
func TestHeldIterBlocksReuse(t *testing.T) {
	tr := New(64 << 20)
	var m refModel
	add := stressAdder(t, tr, &m)
	churn := func() {
		add(20000)
		for i := 0; i < 8; i++ {
			tr.a.reclaim()
		}
		add(2000)
	}
	add(2000)
	sort.Slice(m, m.less)
	before := append(refModel(nil), m...)
	it := tr.NewIter().(*Iter)
	i := len(before) / 2
	if !it.Seek([]byte(before[i].key), before[i].seq) {
		t.Fatal("seek failed")
	}
	e0 := tr.a.rc.ep.epoch.Load()
	_, _, _, reused0 := tr.a.reclaimStats()
	churn()
	if e := tr.a.rc.ep.epoch.Load(); e > e0+1 {
		t.Fatalf("epoch moved from %d to %d under a held iterator", e0, e)
	}
	_, _, _, reused1 := tr.a.reclaimStats()
	// The walk goes on from the offsets it kept before the churn. Nodes it
	// had already snapshotted may have gained children since, so it must
	// yield every entry it could see before, in order, each as the model
	// has it, and may add new ones.
	sort.Slice(m, m.less)
	checkAt(t, "held", it, true, m, m.seek(before[i].key, before[i].seq))
	want := i + 1
	for k := 0; k < 300 && want < len(before); k++ {
		if !it.Next() {
			t.Fatalf("Next under a held registration ended before %+v", before[want])
		}
		key, s := string(it.Key()), it.Seq()
		j := m.seek(key, s)
		checkAt(t, "Next under a held registration", it, true, m, j)
		if w := before[want]; w.key == key && w.seq == s {
			want++
		} else if m.less(m.seek(w.key, w.seq), j) {
			t.Fatalf("Next under a held registration skipped %+v", w)
		}
	}
	it.Close()
	churn()
	_, _, _, reused2 := tr.a.reclaimStats()
	if tr.a.rc.ep.epoch.Load() < e0+2 || reused2 == reused1 {
		t.Fatalf("no reclamation after Close: epoch %d -> %d, reused %d, %d, %d",
			e0, tr.a.rc.ep.epoch.Load(), reused0, reused1, reused2)
	}
}
