// Package scanahead fetches the nodes a forward skiplist scan will reach
// before it reaches them, for memtable/skiplist and memtable/offsetskiplist.
//
// After inserts in random order a list's nodes lie in its arena in
// insertion order, so each node a scan steps to is a cache miss, and the
// misses are dependent: a node's address is in the node before it. An
// iterator that prefetches the node after the one it arrives at hides only
// as much of the next miss as it works on the current entry (a bare Next
// over 400,000 entries takes about 190 ns on the 2-core machine of
// docs/BENCHMARKS.md, nearly all of it the miss).
//
// The list's level index (memtable/internal/levelindex) holds its level-1
// nodes in key order: between two of them lie about four level-0 nodes, a
// segment, and the first node of every segment is known without a walk.
// Ahead keeps Walkers cursors, each walking a segment ahead of the scan by
// the level-0 links, and on each step of the scan moves movesPerStep of
// them, in turn: a move loads the link of the node its cursor is on, which
// it prefetched Walkers / movesPerStep steps before, so the load finds it
// cached, and prefetches the node that link names. The walks of several
// segments overlap, one miss each, where the scan alone would take them
// one after another; the scan then finds its nodes cached.
//
// Measured (memtable/skiplist, a list of 400,000 entries in random order):
// a bare Next 191-199 -> 67-85 ns. Eight cursors moved two a step did best
// among 6 to 16 cursors, one to three a step and leads of 8 to 32 segments
// (one cursor a step: the walks, which spend a move on taking each
// segment, fall behind the scan). Backward scans walked ahead by the back
// links did as well bare (191-203 -> 67-78 ns a Prev) but made a DB
// iterator's reverse step, which already hides most of a miss behind its
// own work, a few percent slower, and nothing runs a bare reverse scan, so
// Prev takes no walks.
//
// Ahead only reads and prefetches: the scan still follows the list's own
// links, so what it returns does not depend on Ahead, whatever the index
// or concurrent inserts do. It starts after StartAfter steps of a scan (a
// seek followed by a few steps pays nothing), hands out at most MaxLead
// segments past the scan's position, stops when the nodes it walks lie
// next to each other in the arena (a list filled in key order, which the
// hardware prefetchers already stream), and restarts on every
// repositioning and every step backward to another node (Reset).
//
// Nothing here is persisted, so there is no on-disk format.
package scanahead

import (
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/prefetch"
	"github.com/godbbench/godbbench/memtable/internal/kvbytes"
	"github.com/godbbench/godbbench/memtable/internal/levelindex"
)

const (
	// Walkers is how many segments are walked at once, and so how many
	// steps of the scan pass between a cursor's prefetch of a node and its
	// load of that node's link.
	Walkers = 8
	// MaxLead bounds how many segments past the scan's position are handed
	// out: the lines fetched ahead stay a few KiB.
	MaxLead = 16
	// movesPerStep is how many cursors one step of the scan moves: more
	// than one, so that the walks, which spend a move on taking each
	// segment, outrun the scan until MaxLead holds them.
	movesPerStep = 2
	// StartAfter is the steps of a scan before Ahead starts.
	StartAfter = 16
	// nearWords and nearRun decide that a list was filled in key order:
	// nearRun walks in a row each found the next node within nearWords
	// 4-byte units after the one before it.
	nearWords = 64
	nearRun   = 32
)

// Layout is what Ahead needs of a list's nodes: a node is named by a
// uint32 offset in 4-byte units, whose address (Windows[byte offset >>
// Shift] plus the rest of the byte offset) holds the node's level-0 link,
// a uint32 offset with 0 for nil; its key and value
// (memtable/internal/kvbytes) follow at KeyOffset.
type Layout struct {
	Windows   unsafe.Pointer // the first of the arena's window addresses
	Shift     uint           // log2 of the window size in bytes
	KeyOffset uintptr
}

// addr resolves a non-nil offset.
func (l *Layout) addr(off uint32) unsafe.Pointer {
	b := uintptr(off) << 2
	w := *(*unsafe.Pointer)(unsafe.Add(l.Windows, (b>>l.Shift)*unsafe.Sizeof(l.Windows)))
	return unsafe.Add(w, b&(1<<l.Shift-1))
}

// entryBytes is the bytes of the node at p from its level-0 link to the
// end of its value.
func (l *Layout) entryBytes(p unsafe.Pointer) uintptr {
	return l.KeyOffset + uintptr(kvbytes.Len(unsafe.Add(p, l.KeyOffset)))
}

// Ahead is one scan's walkers over the list Init gave it. The zero Ahead
// never walks.
type Ahead struct {
	layout *Layout
	ix     *levelindex.Index
	// steps counts the scan's steps until it starts.
	steps int
	// next is the position in ix of the next indexed node the scan meets.
	next int
	// seg is the next segment to hand out: the nodes from ix.Node(seg) to
	// before ix.Node(seg+1).
	seg  int
	turn int // the cursor the next step moves
	near int // walks in a row that found the next node next to the last
	// cur[k] is cursor k's node (0: idle) and stop[k] the first node of
	// the segment after its own, where its walk ends (0: the list's end).
	cur  [Walkers]uint32
	stop [Walkers]uint32
}

// Init makes a the idle walkers of a scan over the list of layout.
func (a *Ahead) Init(layout *Layout) {
	*a = Ahead{layout: layout}
}

// Reset makes a idle: the scan has just been positioned, or stepped
// backward.
func (a *Ahead) Reset() {
	a.ix, a.steps = nil, 0
}

// Due counts a forward step of a scan and reports whether the caller
// should Start a now: the scan's StartAfter-th step since the last Reset.
func (a *Ahead) Due() bool {
	if a.ix != nil || a.steps > StartAfter {
		return false
	}
	a.steps++
	return a.steps == StartAfter
}

// Start starts the walks of a scan over index ix (nil: the list has none,
// and the scan goes on alone), from the scan's current node cur, before
// which before indexed nodes sort (ix.Find).
func (a *Ahead) Start(ix *levelindex.Index, cur uint32, before int) {
	a.steps = StartAfter + 1 // not again until a Reset
	if ix == nil || ix.Len() == 0 || a.layout == nil {
		return
	}
	a.ix, a.turn, a.near = ix, 0, 0
	a.cur = [Walkers]uint32{}
	if before < ix.Len() && ix.Node(before) == cur {
		before++ // the scan is on it: the next one it meets is after it
	}
	a.next, a.seg = before, before
}

// Forward is called by a scan that has just arrived at node n. Until
// Start, and once the walks stop, it costs a compare inline.
func (a *Ahead) Forward(n uint32) {
	if a.ix != nil {
		a.step(n)
	}
}

// step notes the scan's arrival at n and moves movesPerStep cursors.
func (a *Ahead) step(n uint32) {
	ix := a.ix
	if a.next < ix.Len() && n == ix.Node(a.next) {
		// The scan passed an indexed node; if it caught up with the walks,
		// they start again from the first segment ahead of it.
		if a.next++; a.seg < a.next {
			a.seg = a.next
			a.cur = [Walkers]uint32{}
		}
	}
	for range movesPerStep {
		a.move(ix)
	}
}

// move moves the cursor whose turn it is one node forward, or gives it the
// next segment when its walk is over.
func (a *Ahead) move(ix *levelindex.Index) {
	k := a.turn
	a.turn = (k + 1) % Walkers
	l := a.layout
	if w := a.cur[k]; w != 0 {
		p := l.addr(w)
		// The walk ends before the next segment's first node.
		if to := (*atomic.Uint32)(p).Load(); to != 0 && to != a.stop[k] {
			if a.spread(w, to) {
				a.cur[k] = to
				prefetch.Span(l.addr(to), l.entryBytes(p))
			}
			return
		}
	}
	// Cursor k is idle: it takes the next segment, if not too far ahead.
	a.cur[k] = 0
	s := a.seg
	if s >= ix.Len() || s >= a.next+MaxLead {
		return
	}
	a.seg++
	a.cur[k], a.stop[k] = ix.Node(s), 0
	if s+1 < ix.Len() {
		a.stop[k] = ix.Node(s + 1)
	}
	prefetch.Line(l.addr(a.cur[k]))
}

// spread reports whether the walks should go on after one found node to
// right after from: false once nearRun walks in a row found it within
// nearWords after from in the arena, which stops them until the next
// Reset.
func (a *Ahead) spread(from, to uint32) bool {
	if to > from && to-from <= nearWords {
		if a.near++; a.near >= nearRun {
			a.ix = nil
			return false
		}
		return true
	}
	a.near = 0
	return true
}
