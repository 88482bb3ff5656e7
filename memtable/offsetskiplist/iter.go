package offsetskiplist

import (
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/prefetch"
	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/memtable/internal/scanahead"
)

// NewIter implements memtable.Rep.
func (l *List) NewIter() memtable.Iter {
	if l.a == nil {
		panic(errReleased)
	}
	it := &Iter{l: l, r: l.r}
	it.ahead.Init(&l.scan)
	return it
}

// Iter walks a List in internal-key order: nodes by user key, and within a
// node its versions (sequence descending). It is not safe for concurrent
// use by itself, but any number of iterators may run alongside Adds.
type Iter struct {
	l   *List
	r   resolver       // l's, one load nearer
	np  unsafe.Pointer // the current node's address, nil when invalid
	ref uint32         // version record within the node; 0 for an inline version
	tag uint32         // the node's inline tag when ref is 0, or unreadTag
	tr  base.Trailer   // the record's trailer, when ref is not 0

	// chain caches node chainOf's version refs, newest first, so that Prev
	// through a long chain costs O(1) per step instead of a walk from the
	// chain's head. Versions added after it was built are not seen by the
	// backward walk, which the consistent-prefix contract allows.
	chain   []uint32
	chainOf unsafe.Pointer
	ci      int // index of ref in chain when chain[ci] == ref

	ahead scanahead.Ahead // the walks ahead of a scan ("Scans", list.go)
}

// unreadTag in Iter.tag (with ref 0) says that Next moved to a node without
// reading its tag: the iterator stands at the node's newest version,
// whichever that is when settle first reads the tag. A scan that only walks
// keys (memtablerep_bench's readseq) then reads nothing of a node but its
// link, as skip_list's does; Seq, Kind and Value read the tag once. Inline
// tags never have bit 31 set.
const unreadTag = ^uint32(0)

func (it *Iter) invalidate() bool {
	it.np = nil
	return false
}

// atFirst positions at node n's newest version.
func (it *Iter) atFirst(n uint32) bool {
	if n == 0 {
		return it.invalidate()
	}
	np := it.r.addr(n)
	it.np = np
	tag := tagOf(np).Load()
	if tag&chainBit != 0 {
		it.ref, it.tr = tag, recTrailer(it.l.rec(tag))
		return true
	}
	it.ref, it.tag = 0, tag
	return true
}

// settle reads the tag of the node Next moved to, if it has not been read:
// the iterator is then at the node's newest version as of now.
func (it *Iter) settle() {
	if it.ref != 0 || it.tag != unreadTag {
		return
	}
	if tag := tagOf(it.np).Load(); tag&chainBit != 0 {
		it.ref, it.tr = tag, recTrailer(it.l.rec(tag))
	} else {
		it.tag = tag
	}
}

// trailer is the current version's trailer.
func (it *Iter) trailer() base.Trailer {
	it.settle()
	if it.ref == 0 {
		return it.l.inlineTrailer(it.tag)
	}
	return it.tr
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
func (it *Iter) First() bool {
	it.ahead.Reset()
	return it.atFirst(link(it.r.addr(it.l.head), 0).Load())
}

// Last implements memtable.Iter.
func (it *Iter) Last() bool {
	it.ahead.Reset()
	return it.atLast(it.l.findLast(nil, false, true))
}

// startAhead starts the walks ahead of a scan from node n, the current
// one.
func (it *Iter) startAhead(n uint32) {
	ix := it.l.index.Load()
	before := 0
	if ix != nil {
		t := lookupFor(keyOf(it.np))
		before = ix.Find(t.prefix, func(x uint32) bool { return cmp(it.r.addr(x), &t) < 0 })
	}
	it.ahead.Start(ix, n, before)
}

// Seek implements memtable.Iter.
func (it *Iter) Seek(key []byte, seq uint64) bool {
	it.ahead.Reset()
	l := it.l
	t := lookupFor(key)
	if !it.atFirst(l.findGreaterOrEqual(&t)) || !sameKey(it.np, &t) {
		return it.np != nil
	}
	// Versions newer than seq are passed over; past the key's last one,
	// Next has moved to the next key, whose every version is after
	// (key, seq).
	for np := it.np; it.trailer().Seq() > seq; {
		if !it.Next() || it.np != np {
			return it.np != nil
		}
	}
	return true
}

// SeekForPrev implements memtable.Iter.
func (it *Iter) SeekForPrev(key []byte, seq uint64) bool {
	it.ahead.Reset()
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

// Next implements memtable.Iter. The chain walk is written out, not
// called. A node whose tag is inline holds its key's only version (a chain
// never turns back into an inline tag), whatever the iterator read of it
// before, so Next goes straight on to the next node, and does not read that
// node's tag (see unreadTag). Otherwise it takes the next older version in
// the chain, if there is one. Arriving at a node, it starts fetching the
// node after it (see "Scans" in the package doc).
func (it *Iter) Next() bool {
	np := it.np
	if np == nil {
		return false
	}
	if tag := tagOf(np).Load(); tag&chainBit != 0 {
		l := it.l
		var next uint32
		switch {
		case it.ref != 0:
			next = recNext(l.rec(it.ref)).Load()
		case it.tag == unreadTag:
			// Unread: the iterator stood at the chain's head.
			next = recNext(l.rec(tag)).Load()
		default:
			// Read while inline: the versions added since that are older
			// than the one read follow it.
			t := l.inlineTrailer(it.tag)
			for next = tag; next != 0; {
				r := l.rec(next)
				if recTrailer(r) < t {
					break
				}
				next = recNext(r).Load()
			}
		}
		if next != 0 {
			it.ref, it.tr = next, recTrailer(l.rec(next))
			return true
		}
		it.ref = 0
	}
	n := link(np, 0).Load()
	if n == 0 {
		it.np = nil
		return false
	}
	np = it.r.addr(n)
	it.np, it.tag = np, unreadTag
	if after := link(np, 0).Load(); after != 0 {
		prefetch.Span(it.r.addr(after), entryBytes(np))
	}
	if it.ahead.Due() {
		it.startAhead(n)
	}
	it.ahead.Forward(n)
	return true
}

// maxPrevWalk bounds the nodes Prev walks forward from a stale back link
// before it searches from the top instead.
const maxPrevWalk = 8

// Prev implements memtable.Iter. Within a node it steps back through the
// cached chain (built once per node, O(1) per step after that). Across
// nodes it takes the node's back link (node.go): when the node it names
// links to this one at level 0, that is the predecessor, one load in the
// common case, and Prev starts fetching the node that one's back link
// names, as Next does forward; otherwise concurrent inserts put nodes
// between them, and Prev walks forward from it, or searches from the top.
func (it *Iter) Prev() bool {
	np := it.np
	if np == nil {
		return false
	}
	l := it.l
	it.settle()
	if it.ref != 0 {
		if it.chainOf != np || it.ci < 0 || it.ci >= len(it.chain) || it.chain[it.ci] != it.ref {
			it.loadChain()
		}
		if it.ci > 0 {
			it.ci--
			it.ref = it.chain[it.ci]
			it.tr = recTrailer(l.rec(it.ref))
			return true
		}
	}
	r := it.r
	p := prevLink(np).Load()
	pp := r.addr(p)
	for range maxPrevWalk {
		next := link(pp, 0).Load()
		if next == 0 {
			break
		}
		nextp := r.addr(next)
		if nextp == np {
			if p == l.head {
				return it.invalidate()
			}
			it.atLast(p)
			prefetch.Span(r.addr(prevLink(pp).Load()), entryBytes(pp))
			// The walks ahead go forward only (memtable/internal/scanahead).
			it.ahead.Reset()
			return true
		}
		p, pp = next, nextp
	}
	t := lookupFor(keyOf(np))
	it.ahead.Reset()
	return it.atLast(l.findLast(&t, false, false))
}

// Valid implements memtable.Iter.
func (it *Iter) Valid() bool { return it.np != nil }

// Key implements memtable.Iter.
func (it *Iter) Key() []byte { return keyOf(it.np) }

// Seq implements memtable.Iter.
func (it *Iter) Seq() uint64 { return it.trailer().Seq() }

// Kind implements memtable.Iter.
func (it *Iter) Kind() base.Kind { return it.trailer().Kind() }

// Value implements memtable.Iter.
func (it *Iter) Value() []byte {
	it.settle()
	return it.l.value(it.np, it.ref)
}

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
	it.chainOf = it.np
}
