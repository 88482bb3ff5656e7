package skiplist

import (
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/prefetch"
	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/memtable/internal/scanahead"
	"github.com/godbbench/godbbench/memtable/internal/sortedrun"
)

// NewIter implements memtable.Iter.
func (l *List) NewIter() memtable.Iter {
	it := &Iter{list: l}
	it.ahead.Init(&l.scan)
	return it
}

// Iter walks a List; it is not safe for concurrent use by itself.
type Iter struct {
	list  *List
	n     uint32         // the current node, 0 when not valid
	p     unsafe.Pointer // its address
	ahead scanahead.Ahead
}

// set positions the iterator at n (0: not valid) by a search, which
// restarts the walks ahead of a scan (see "Scans" in the package doc).
func (it *Iter) set(n uint32) bool {
	it.ahead.Reset()
	return it.step(n)
}

// step moves the iterator to n, the node next to the current one.
func (it *Iter) step(n uint32) bool {
	it.n = n
	if n != 0 {
		it.p = it.list.r.addr(n)
	}
	return n != 0
}

// First implements memtable.Iter.
func (it *Iter) First() bool { return it.set(link(it.list.r.addr(headRef), 0).Load()) }

// Last implements memtable.Iter.
func (it *Iter) Last() bool { return it.set(it.list.findLast(nil, false, true)) }

// Seek implements memtable.Iter.
func (it *Iter) Seek(key []byte, seq uint64) bool {
	t := sortedrun.NewTarget(key, base.SeekTrailer(seq))
	return it.set(it.list.findGreaterOrEqual(&t))
}

// SeekForPrev implements memtable.Iter.
func (it *Iter) SeekForPrev(key []byte, seq uint64) bool {
	t := sortedrun.NewTarget(key, base.SeekForPrevTrailer(seq))
	return it.set(it.list.findLast(&t, true, false))
}

// Next implements memtable.Iter. It also starts fetching the node after
// the new one (see "Scans" in the package doc), so that the caller's work on
// this entry overlaps the next step's cache miss.
func (it *Iter) Next() bool {
	if it.n == 0 {
		return false
	}
	if !it.step(link(it.p, 0).Load()) {
		return false
	}
	if n := link(it.p, 0).Load(); n != 0 {
		prefetch.Span(it.list.r.addr(n), entryBytes(it.p))
	}
	if it.ahead.Due() {
		it.startAhead()
	}
	it.ahead.Forward(it.n)
	return true
}

// startAhead starts the walks ahead of a scan from the current node.
func (it *Iter) startAhead() {
	ix := it.list.index.Load()
	before := 0
	if ix != nil {
		t := lookupOf(it.p)
		before = ix.Find(t.Prefix, func(n uint32) bool { return cmp(it.list.r.addr(n), &t) < 0 })
	}
	it.ahead.Start(ix, it.n, before)
}

// maxPrevWalk bounds the nodes Prev walks forward from a stale backward
// link before it searches from the top instead.
const maxPrevWalk = 8

// Prev implements memtable.Iter. The node's backward link (node.go) names
// a node before it; when that node's next link is this one, it is the
// predecessor (one load in the common case), and Prev starts fetching the
// node its backward link names, as Next does forward. Otherwise concurrent
// inserts put nodes between them, and Prev walks forward from it, or
// searches.
func (it *Iter) Prev() bool {
	if it.n == 0 {
		return false
	}
	r := it.list.r
	p := prevLink(it.p).Load()
	for range maxPrevWalk {
		pp := r.addr(p)
		next := link(pp, 0).Load()
		if next == it.n {
			if p == headRef {
				return it.set(0)
			}
			it.n, it.p = p, pp
			prefetch.Span(r.addr(prevLink(pp).Load()), entryBytes(pp))
			// The walks ahead go forward only (memtable/internal/scanahead).
			it.ahead.Reset()
			return true
		}
		if next == 0 {
			break
		}
		p = next
	}
	t := lookupOf(it.p)
	return it.set(it.list.findLast(&t, false, false))
}

// Valid implements memtable.Iter.
func (it *Iter) Valid() bool { return it.n != 0 }

// Key implements memtable.Iter.
func (it *Iter) Key() []byte { return keyOf(it.p) }

// Seq implements memtable.Iter.
func (it *Iter) Seq() uint64 { return trailerOf(it.p).Seq() }

// Kind implements memtable.Iter.
func (it *Iter) Kind() base.Kind { return trailerOf(it.p).Kind() }

// Value implements memtable.Iter.
func (it *Iter) Value() []byte { return valueOf(it.p) }
