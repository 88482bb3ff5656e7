package offsetskiplist

import (
	"bytes"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
)

// NewIter implements memtable.Rep.
func (l *List) NewIter() memtable.Iter { return &Iter{l: l} }

// Iter walks a List in internal-key order: nodes by user key, and within a
// node its version chain (sequence descending). It is not safe for
// concurrent use by itself, but any number of iterators may run alongside
// Adds.
type Iter struct {
	l *List
	n uint32 // node, 0 when invalid
	v uint32 // version record within n

	// chain caches node chainOf's version offsets, newest first, so that
	// Prev through a long chain costs O(1) per step instead of a walk from
	// the chain's head. Versions added after it was built are not seen by
	// the backward walk, which the consistent-prefix contract allows.
	chain   []uint32
	chainOf uint32
	ci      int // index of v in chain when chain[ci] == v
}

func (it *Iter) at(n, v uint32) bool {
	if n == 0 || v == 0 {
		it.n, it.v = 0, 0
		return false
	}
	it.n, it.v = n, v
	return true
}

// lastVersion returns the oldest version record of node n.
func (l *List) lastVersion(n uint32) uint32 {
	v := l.versions(n)
	for {
		nv := l.nextVersion(v)
		if nv == 0 {
			return v
		}
		v = nv
	}
}

// atLast positions at node n's oldest version.
func (it *Iter) atLast(n uint32) bool {
	if n == 0 {
		return it.at(0, 0)
	}
	return it.at(n, it.l.lastVersion(n))
}

// atFirst positions at node n's newest version.
func (it *Iter) atFirst(n uint32) bool {
	if n == 0 {
		return it.at(0, 0)
	}
	return it.at(n, it.l.versions(n))
}

// First implements memtable.Iter.
func (it *Iter) First() bool { return it.atFirst(it.l.next(it.l.head, 0)) }

// Last implements memtable.Iter.
func (it *Iter) Last() bool { return it.atLast(it.l.findLast(nil, false, true)) }

// Seek implements memtable.Iter.
func (it *Iter) Seek(key []byte, seq uint64) bool {
	l := it.l
	n := l.findGreaterOrEqual(key)
	if n == 0 || !bytes.Equal(l.key(n), key) {
		return it.atFirst(n)
	}
	for v := l.versions(n); v != 0; v = l.nextVersion(v) {
		if l.trailer(v).Seq() <= seq {
			return it.at(n, v)
		}
	}
	return it.atFirst(l.next(n, 0))
}

// SeekForPrev implements memtable.Iter.
func (it *Iter) SeekForPrev(key []byte, seq uint64) bool {
	l := it.l
	n := l.findLast(key, true, false)
	if n == 0 || !bytes.Equal(l.key(n), key) {
		return it.atLast(n)
	}
	// The last version with sequence >= seq; versions are newest first.
	var found uint32
	for v := l.versions(n); v != 0 && l.trailer(v).Seq() >= seq; v = l.nextVersion(v) {
		found = v
	}
	if found != 0 {
		return it.at(n, found)
	}
	return it.atLast(l.findLast(key, false, false))
}

// Next implements memtable.Iter.
func (it *Iter) Next() bool {
	if it.n == 0 {
		return false
	}
	if nv := it.l.nextVersion(it.v); nv != 0 {
		it.v = nv
		return true
	}
	return it.atFirst(it.l.next(it.n, 0))
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
	if l.versions(it.n) != it.v {
		if it.chainOf != it.n || it.ci < 0 || it.ci >= len(it.chain) || it.chain[it.ci] != it.v {
			it.loadChain()
		}
		if it.ci > 0 {
			it.ci--
			it.v = it.chain[it.ci]
			return true
		}
	}
	return it.atLast(l.findLast(l.key(it.n), false, false))
}

// Valid implements memtable.Iter.
func (it *Iter) Valid() bool { return it.n != 0 }

// Key implements memtable.Iter.
func (it *Iter) Key() []byte { return it.l.key(it.n) }

// Seq implements memtable.Iter.
func (it *Iter) Seq() uint64 { return it.l.trailer(it.v).Seq() }

// Kind implements memtable.Iter.
func (it *Iter) Kind() base.Kind { return it.l.trailer(it.v).Kind() }

// Value implements memtable.Iter.
func (it *Iter) Value() []byte { return it.l.value(it.v) }

// loadChain caches the current node's version chain and the position of the
// current version in it (ci = -1 if a concurrent Add made it unreachable,
// which cannot happen: versions are never unlinked).
func (it *Iter) loadChain() {
	l := it.l
	it.chain = it.chain[:0]
	it.ci = -1
	for v := l.versions(it.n); v != 0; v = l.nextVersion(v) {
		if v == it.v {
			it.ci = len(it.chain)
		}
		it.chain = append(it.chain, v)
	}
	it.chainOf = it.n
}
