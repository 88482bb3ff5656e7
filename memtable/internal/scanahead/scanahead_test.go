package scanahead

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/godbbench/godbbench/memtable/internal/levelindex"
)

// testList is a two-level list in one Go byte slice, laid out as the
// lists of memtable/skiplist and memtable/offsetskiplist lay out theirs:
// a node's level-1 link 4 bytes before its address, its level-0 link at
// it, its back link at +4 and its key (length 8) at +8.
type testList struct {
	mem     []byte
	windows [1]unsafe.Pointer
	layout  Layout
	nodes   []uint32 // in key order
	index   *levelindex.Index
}

const (
	testNodeBytes = 24
	testShift     = 26 // one window for the whole slice
)

// newTestList makes a list of n keys whose nodes lie in the slice in the
// order slots gives (slots[i] is the slot of the i-th key), every fourth
// key at level 1, and its level index.
func newTestList(t *testing.T, slots []int) *testList {
	n := len(slots)
	l := &testList{mem: make([]byte, (n+2)*testNodeBytes+64)}
	l.windows[0] = unsafe.Pointer(&l.mem[0])
	// Node addresses are 4 bytes into their slot (the level-1 link comes
	// first); slot 0 is the head, so no node has offset 0.
	addrOf := func(slot int) uint32 { return uint32((slot*testNodeBytes + 4) / 4) }
	head := addrOf(0)
	l.layout = Layout{Windows: unsafe.Pointer(&l.windows[0]), Shift: testShift, PrevOffset: 4, KeyOffset: 8, Head: head}
	put := func(off uint32, at int, v uint32) {
		binary.LittleEndian.PutUint32(l.mem[int(off)*4+at:], v)
	}
	prev, prev1 := head, head
	for i, s := range slots {
		x := addrOf(s + 1)
		l.nodes = append(l.nodes, x)
		put(prev, 0, x) // level 0
		put(x, 4, prev) // back link
		key := l.mem[int(x)*4+8:]
		key[0] = 8
		binary.BigEndian.PutUint64(key[1:], uint64(i)<<8)
		if i%4 == 0 {
			put(prev1, -4, x) // level 1
			prev1 = x
		}
		prev = x
	}
	var k levelindex.Keeper
	k.Build(int64(n), 2, levelindex.Nodes{Head: head, Addr: l.addr, KeyOffset: 8})
	l.index = k.Load()
	if l.index == nil || l.index.Len() != (n+3)/4 {
		t.Fatalf("index of %d nodes, want %d", l.index.Len(), (n+3)/4)
	}
	return l
}

func (l *testList) addr(off uint32) unsafe.Pointer { return l.layout.addr(off) }

// step is one step of a scan that has just reached key index i, going
// backward or forward: Due, Start as an iterator does, then the move.
func (l *testList) step(a *Ahead, i int, backward bool) {
	n := l.nodes[i]
	if a.Due(backward) {
		before := 0
		for before < l.index.Len() && l.index.Prefix(before) < uint64(i)<<8 {
			before++
		}
		a.Start(l.index, n, before)
	}
	if backward {
		a.Backward(n)
	} else {
		a.Forward(n)
	}
}

// scan steps a scan over l from key index from, forward or backward, for
// at most steps steps, calling check (if not nil) after each, and returns
// how many of the nodes it reached after its first StartAfter+2*MaxLead
// steps a cursor had stood on before it reached them, and how many such
// nodes there were.
func (l *testList) scan(a *Ahead, from, steps int, backward bool, check func(i int)) (seen, total int) {
	walked := map[uint32]bool{}
	i := from
	for s := 0; s < steps; s++ {
		if backward {
			i--
		} else {
			i++
		}
		if i < 0 || i >= len(l.nodes) {
			break
		}
		if s > StartAfter+2*MaxLead {
			total++
			if walked[l.nodes[i]] {
				seen++
			}
		}
		l.step(a, i, backward)
		for _, c := range a.cur {
			walked[c] = true
		}
		if check != nil {
			check(i)
		}
	}
	return seen, total
}

// shuffled returns the slots of n keys in random order.
func shuffled(n int) []int {
	return rand.New(rand.NewPCG(3, 4)).Perm(n)
}

func TestWalksReachNodesBeforeTheScan(t *testing.T) {
	l := newTestList(t, shuffled(20_000))
	for _, c := range []struct {
		name     string
		from     int
		backward bool
	}{
		{"forward from the first", -1, false},
		{"forward from the middle", 7_777, false},
		{"backward from the last", len(l.nodes), true},
		{"backward from the middle", 12_345, true},
	} {
		var a Ahead
		a.Reset(&l.layout)
		seen, total := l.scan(&a, c.from, 5_000, c.backward, nil)
		if total == 0 || seen < total*98/100 {
			t.Errorf("%s: the walks reached %d of %d nodes before the scan", c.name, seen, total)
		}
		if a.ix == nil {
			t.Errorf("%s: the walks stopped", c.name)
		}
	}
}

func TestWalksStopOnAListInKeyOrder(t *testing.T) {
	slots := make([]int, 20_000)
	for i := range slots {
		slots[i] = i
	}
	l := newTestList(t, slots)
	for _, backward := range []bool{false, true} {
		var a Ahead
		from := -1
		if backward {
			from = len(l.nodes)
		}
		a.Reset(&l.layout)
		l.scan(&a, from, 2_000, backward, nil)
		if a.ix != nil {
			t.Errorf("backward %v: the walks go on over nodes in key order", backward)
		}
	}
}

func TestWalksFollowTheScanAfterATurn(t *testing.T) {
	l := newTestList(t, shuffled(20_000))
	var a Ahead
	a.Reset(&l.layout)
	l.scan(&a, 100, 1_000, false, nil)
	// Without a Reset: Due sees the turn and starts over backward.
	seen, total := l.scan(&a, 1_101, 1_000, true, nil)
	if total == 0 || seen < total*98/100 {
		t.Errorf("after a turn the walks reached %d of %d nodes before the scan", seen, total)
	}
}

func TestBackwardWalksEndOnStaleBackLinks(t *testing.T) {
	l := newTestList(t, shuffled(4_000))
	pos := map[uint32]int{}
	for i, n := range l.nodes {
		pos[n] = i
	}
	// Every back link names the node three before, so a walk of a
	// segment (four keys) passes its first node without meeting it; it
	// ends after maxBackSteps moves (three keys each), or sooner when the
	// scan catches up and the walks start again ahead of it.
	for i := 3; i < len(l.nodes); i++ {
		binary.LittleEndian.PutUint32(l.mem[int(l.nodes[i])*4+4:], l.nodes[i-3])
	}
	var a Ahead
	a.Reset(&l.layout)
	worst := 0
	l.scan(&a, len(l.nodes), len(l.nodes), true, func(int) {
		for k, c := range a.cur {
			if c != 0 {
				worst = max(worst, pos[a.stop[k]]-pos[c])
			}
		}
	})
	if worst == 0 || worst > 3*maxBackSteps {
		t.Errorf("a walk went %d keys past its segment's first node, want 1 to %d", worst, 3*maxBackSteps)
	}
}

func TestNoWalksWithoutAnIndex(t *testing.T) {
	l := newTestList(t, shuffled(1_000))
	var a Ahead
	a.Reset(&l.layout)
	for i := range StartAfter {
		if a.Due(false) {
			if i != StartAfter-1 {
				t.Fatalf("due after %d steps", i+1)
			}
			a.Start(nil, l.nodes[i], 0)
		}
		a.Forward(l.nodes[i])
	}
	for i := StartAfter; i < 100; i++ {
		if a.Due(false) {
			t.Fatalf("due again after %d steps", i+1)
		}
		a.Forward(l.nodes[i])
	}
	if a.cur != [Walkers]uint32{} {
		t.Errorf("cursors %v moved without an index", a.cur)
	}
}
