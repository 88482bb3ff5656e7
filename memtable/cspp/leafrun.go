package cspp

import (
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
)

// leafRun is the read-ahead's fast path for the shape most entries of a big
// trie have: a run of sibling leaves of one small node, each key with a
// single version. While the walk stands in a leaf (inLeaf) at its last
// version, and the next child of the top frame (from the frame's sorted
// snapshot) is a leaf whose version block holds one sorted entry, leafRun
// reads that entry straight into ahead[n] and goes on with the next
// sibling, up to want entries. Anything else (an inner node, a key with
// more versions, the end of the node) ends the run and leaves the step to
// next, the general walk.
//
// It does what forward, enterLeaf and loadVersions would do for those
// entries, with the walk's state kept in locals and written back once: the
// frame's pos, the last leaf's key in buf, its pin and its version block.
// Keys go where readAhead puts them: stable copies in the slab, or into
// aheadKeys, where the run stores the frame's key once as every entry's
// prefix and each entry's label and compressed path as its suffix (one
// copy of a few bytes an entry instead of two of the whole key). It returns
// the new n.
func (it *Iter) leafRun(n, want int, stable bool) int {
	if !it.inLeaf || it.v != 0 || n >= want {
		return n
	}
	f := &it.stack[len(it.stack)-1]
	if f.direct || f.pos+1 >= f.n {
		return n
	}
	a := it.a
	prefix := f.keyEnd
	buf, keys := it.buf, it.aheadKeys
	pStart := uint32(len(keys))
	if !stable {
		keys = append(keys, buf[:prefix]...)
	}
	pEnd := uint32(len(keys))
	pos, pin, blk := f.pos, uint32(0), uint32(0)
	var zp []byte
	for n < want && pos+1 < f.n {
		link := f.links[pos+1]
		h := atomic.LoadUint32(a.slot(link))
		if hdrClass(h) != classLeaf {
			break
		}
		p := atomic.LoadUint32(a.slot(link + 1))
		if p == 0 {
			break
		}
		b := atomic.LoadUint32(a.slot(p)) &^ pinLock
		if atomic.LoadUint32(a.slot(b)) != 1 { // one entry, sorted
			break
		}
		pos++
		pin, blk = p, b
		if pos+2 < f.n {
			// The leaf two siblings on, and the line after it, where a
			// fresh key's version vector lies (insert.go).
			if l := f.links[pos+2]; int(l)+16 < len(a.slots) {
				prefetch(unsafe.Pointer(a.slot(l)))
				prefetch(unsafe.Pointer(a.slot(l + 16)))
			}
		}
		zp = unsafe.Slice((*byte)(unsafe.Pointer(a.slot(link+2))), hdrZlen(h))
		e := &it.ahead[n]
		x := entryAt(b, 0)
		e.tag = base.Trailer(*a.slot(x + 1))<<32 | base.Trailer(*a.slot(x))
		e.voff, e.vlen = *a.slot(x + 2), *a.slot(x + 3)
		e.newKey = true
		if stable {
			buf = append(buf[:prefix], f.labels[pos])
			buf = append(buf, zp...)
			e.key = it.stableCopy(nil, buf)
		} else {
			kStart := uint32(len(keys))
			keys = append(keys, f.labels[pos])
			keys = append(keys, zp...)
			e.pStart, e.pEnd = pStart, pEnd
			e.kStart, e.kEnd = kStart, uint32(len(keys))
		}
		n++
	}
	if pin == 0 {
		it.aheadKeys = keys[:pStart]
		return n
	}
	if !stable {
		buf = append(buf[:prefix], f.labels[pos])
		buf = append(buf, zp...)
	}
	it.buf, it.aheadKeys = buf, keys
	f.pos = pos
	it.leafEnd, it.leafPin = len(buf), pin
	it.blk, it.num, it.v, it.sorted = blk, 1, 0, true
	it.walkNewKey = true
	return n
}
