package offsetskiplist

import (
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
)

// NewIter implements memtable.Rep.
func (l *List) NewIter() memtable.Iter {
	if l.a == nil {
		panic(errReleased)
	}
	return &Iter{l: l}
}

// Iter walks a List in internal-key order: nodes by user key, and within a
// node its versions (sequence descending). It is not safe for concurrent
// use by itself, but any number of iterators may run alongside Adds.
type Iter struct {
	l   *List
	n   uint32         // node, 0 when invalid
	np  unsafe.Pointer // its address
	ref uint32         // version record within n; 0 for an inline node's version
	tag uint32         // n's inline tag, when ref is 0
	tr  base.Trailer   // the record's trailer, when ref is not 0

	// chain caches node chainOf's version refs, newest first, so that Prev
	// through a long chain costs O(1) per step instead of a walk from the
	// chain's head. Versions added after it was built are not seen by the
	// backward walk, which the consistent-prefix contract allows.
	chain   []uint32
	chainOf uint32
	ci      int // index of ref in chain when chain[ci] == ref
}

func (it *Iter) invalidate() bool {
	it.n, it.np = 0, nil
	return false
}

// atFirst positions at node n's newest version.
func (it *Iter) atFirst(n uint32) bool {
	if n == 0 {
		return it.invalidate()
	}
	np := it.l.r.addr(n)
	it.n, it.np = n, np
	tag := tagOf(np).Load()
	if tag&chainBit != 0 {
		it.ref, it.tr = tag, recTrailer(it.l.rec(tag))
		return true
	}
	it.ref, it.tag = 0, tag
	return true
}

// trailer is the current version's trailer.
func (it *Iter) trailer() base.Trailer {
	if it.ref == 0 {
		return it.l.inlineTrailer(it.tag)
	}
	return it.tr
}

// step moves to the version after the current one within its node, if
// there is one.
func (it *Iter) step() bool {
	if it.ref != 0 {
		if next := recNext(it.l.rec(it.ref)).Load(); next != 0 {
			it.ref, it.tr = next, recTrailer(it.l.rec(next))
			return true
		}
		return false
	}
	if tagOf(it.np).Load()&chainBit == 0 {
		return false // still the key's only version
	}
	// Versions were added since the node was read: the ones older than
	// the inline version follow it.
	ref, tr, ok := it.l.versionBelow(it.np, it.l.inlineTrailer(it.tag))
	if ok {
		it.ref, it.tr = ref, tr
	}
	return ok
}

// atLast positions at node n's oldest version.
func (it *Iter) atLast(n uint32) bool {
	if !it.atFirst(n) {
		return false
	}
	for ref := it.ref; ref != 0; {
		r := it.l.rec(ref)
		it.ref, it.tr = ref, recTrailer(r)
		ref = recNext(r).Load()
	}
	return true
}

// First implements memtable.Iter.
func (it *Iter) First() bool { return it.atFirst(link(it.l.r.addr(it.l.head), 0).Load()) }

// Last implements memtable.Iter.
func (it *Iter) Last() bool { return it.atLast(it.l.findLast(nil, false, true)) }

// Seek implements memtable.Iter.
func (it *Iter) Seek(key []byte, seq uint64) bool {
	l := it.l
	t := lookupFor(key)
	if !it.atFirst(l.findGreaterOrEqual(&t)) || !sameKey(it.np, &t) {
		return it.n != 0
	}
	for it.trailer().Seq() > seq {
		if !it.step() {
			return it.atFirst(link(it.np, 0).Load())
		}
	}
	return true
}

// SeekForPrev implements memtable.Iter.
func (it *Iter) SeekForPrev(key []byte, seq uint64) bool {
	l := it.l
	t := lookupFor(key)
	n := l.findLast(&t, true, false)
	if !it.atFirst(n) || !sameKey(it.np, &t) {
		return it.atLast(n)
	}
	if it.trailer().Seq() < seq {
		return it.atLast(l.findLast(&t, false, false))
	}
	// The last version with sequence >= seq; versions are newest first.
	for it.ref != 0 {
		next := recNext(l.rec(it.ref)).Load()
		if next == 0 {
			break
		}
		tr := recTrailer(l.rec(next))
		if tr.Seq() < seq {
			break
		}
		it.ref, it.tr = next, tr
	}
	return true
}

// Next implements memtable.Iter.
func (it *Iter) Next() bool {
	if it.n == 0 {
		return false
	}
	if it.ref == 0 && tagOf(it.np).Load()&chainBit == 0 {
		// The node still holds its key's only version (a scan's common
		// case): straight on to the next node, here when it too has one
		// version, without atFirst's call.
		n := link(it.np, 0).Load()
		if n != 0 {
			np := it.l.r.addr(n)
			if tag := tagOf(np).Load(); tag&chainBit == 0 {
				it.n, it.np, it.tag = n, np, tag
				return true
			}
		}
		return it.atFirst(n)
	}
	return it.step() || it.atFirst(link(it.np, 0).Load())
}

// Prev implements memtable.Iter. Within a node it steps back through the
// cached chain (built once per node, O(1) per step after that); across
// nodes it searches from the top, as InlineSkipList does, because nodes
// have no back links.
func (it *Iter) Prev() bool {
	if it.n == 0 {
		return false
	}
	l := it.l
	if it.ref != 0 {
		if it.chainOf != it.n || it.ci < 0 || it.ci >= len(it.chain) || it.chain[it.ci] != it.ref {
			it.loadChain()
		}
		if it.ci > 0 {
			it.ci--
			it.ref = it.chain[it.ci]
			it.tr = recTrailer(l.rec(it.ref))
			return true
		}
	}
	t := lookupFor(keyOf(it.np))
	return it.atLast(l.findLast(&t, false, false))
}

// Valid implements memtable.Iter.
func (it *Iter) Valid() bool { return it.n != 0 }

// Key implements memtable.Iter.
func (it *Iter) Key() []byte { return keyOf(it.np) }

// Seq implements memtable.Iter.
func (it *Iter) Seq() uint64 { return it.trailer().Seq() }

// Kind implements memtable.Iter.
func (it *Iter) Kind() base.Kind { return it.trailer().Kind() }

// Value implements memtable.Iter.
func (it *Iter) Value() []byte { return it.l.value(it.np, it.ref) }

// loadChain caches the current node's version chain and the position of the
// current version in it (ci = -1 if it is not there, which cannot happen:
// records are never unlinked).
func (it *Iter) loadChain() {
	l := it.l
	it.chain = it.chain[:0]
	it.ci = -1
	ref := tagOf(it.np).Load()
	for ; ref&chainBit != 0; ref = recNext(l.rec(ref)).Load() {
		if ref == it.ref {
			it.ci = len(it.chain)
		}
		it.chain = append(it.chain, ref)
	}
	it.chainOf = it.n
}
