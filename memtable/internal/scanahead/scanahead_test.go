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
// it and its key (length 8) at +8.
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
	l.layout = Layout{Windows: unsafe.Pointer(&l.windows[0]), Shift: testShift, KeyOffset: 8}
	put := func(off uint32, at int, v uint32) {
		binary.LittleEndian.PutUint32(l.mem[int(off)*4+at:], v)
	}
	prev, prev1 := head, head
	for i, s := range slots {
		x := addrOf(s + 1)
		l.nodes = append(l.nodes, x)
		put(prev, 0, x) // level 0
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

// step is one step of a scan that has just reached key index i: Due and
// Start as an iterator calls them, then Forward.
func (l *testList) step(a *Ahead, i int) {
	n := l.nodes[i]
	if a.Due() {
		before := 0
		for before < l.index.Len() && l.index.Prefix(before) < uint64(i)<<8 {
			before++
		}
		a.Start(l.index, n, before)
	}
	a.Forward(n)
}

// scan steps a scan over l from after key index from for at most steps
// steps, and returns how many of the nodes it reached after its first
// StartAfter+2*MaxLead steps a cursor had stood on before it reached
// them, and how many such nodes there were.
func (l *testList) scan(a *Ahead, from, steps int) (seen, total int) {
	walked := map[uint32]bool{}
	for s, i := 0, from+1; s < steps && i < len(l.nodes); s, i = s+1, i+1 {
		if s > StartAfter+2*MaxLead {
			total++
			if walked[l.nodes[i]] {
				seen++
			}
		}
		l.step(a, i)
		for _, c := range a.cur {
			walked[c] = true
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
	for _, from := range []int{-1, 7_777} {
		var a Ahead
		a.Init(&l.layout)
		seen, total := l.scan(&a, from, 5_000)
		if total == 0 || seen < total*98/100 {
			t.Errorf("from %d: the walks reached %d of %d nodes before the scan", from, seen, total)
		}
		if a.ix == nil {
			t.Errorf("from %d: the walks stopped", from)
		}
	}
}

func TestWalksStopOnAListInKeyOrder(t *testing.T) {
	slots := make([]int, 20_000)
	for i := range slots {
		slots[i] = i
	}
	l := newTestList(t, slots)
	var a Ahead
	a.Init(&l.layout)
	l.scan(&a, -1, 2_000)
	if a.ix != nil {
		t.Errorf("the walks go on over nodes in key order")
	}
}

func TestWalksStartAgainAfterAReset(t *testing.T) {
	l := newTestList(t, shuffled(20_000))
	var a Ahead
	a.Init(&l.layout)
	l.scan(&a, 100, 1_000)
	// A backward step or a seek: the scan is elsewhere now.
	a.Reset()
	if a.ix != nil {
		t.Fatal("walks go on after a Reset")
	}
	seen, total := l.scan(&a, 15_000, 1_000)
	if total == 0 || seen < total*98/100 {
		t.Errorf("after a Reset the walks reached %d of %d nodes before the scan", seen, total)
	}
}

func TestNoWalksWithoutAnIndex(t *testing.T) {
	l := newTestList(t, shuffled(1_000))
	var a Ahead
	a.Init(&l.layout)
	for i := range 100 {
		if a.Due() {
			if i != StartAfter-1 {
				t.Fatalf("due after %d steps", i+1)
			}
			a.Start(nil, l.nodes[i], 0)
		}
		a.Forward(l.nodes[i])
	}
	if a.cur != [Walkers]uint32{} {
		t.Errorf("cursors %v moved without an index", a.cur)
	}
}
