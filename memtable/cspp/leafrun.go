package cspp

import (
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
)

// leafRun is the read-ahead's fast path for the shape most entries of a big
// trie have: a run of sibling leaves, each key with a single version. While
// the walk stands in a leaf (inLeaf) at its last version, and the next
// child of the top frame (from a small node's sorted snapshot, or the next
// link of a direct node) is a leaf whose version block holds one sorted
// entry, leafRun reads that entry straight into ahead[n] and goes on with
// the next sibling, up to want entries. Anything else (an inner node, a key
// with more versions, the end of the node) ends the run and leaves the step
// to next, the general walk.
//
// It does what forward, enterLeaf and loadVersions would do for those
// entries, with the walk's state kept in locals and written back once: the
// frame's pos, the last leaf's key in buf, its pin and its version block.
// Keys go into aheadKeys, where the run stores the frame's key once as
// every entry's prefix and each entry's label and compressed path as its
// suffix (one copy of a few bytes an entry instead of two of the whole
// key), and, when readAhead asks for stable keys, also into the slab. It
// returns the new n.
func (it *Iter) leafRun(n, want int, stable bool) int {
	if !it.inLeaf || it.v != 0 || n >= want {
		return n
	}
	f := &it.stack[len(it.stack)-1]
	a := it.a
	prefix := f.keyEnd
	keys := it.aheadKeys
	pStart := uint32(len(keys))
	keys = append(keys, it.buf[:prefix]...)
	pEnd := uint32(len(keys))
	pos := f.pos
	for n < want {
		next := pos + 1
		var link uint32
		var label byte
		if f.direct {
			for ; next < 256; next++ {
				if link = atomic.LoadUint32(a.slot(f.node + 2 + uint32(next))); link != 0 {
					break
				}
			}
			if link == 0 {
				break
			}
			label = byte(next)
		} else {
			if next >= f.n {
				break
			}
			link, label = f.links[next], f.labels[next]
		}
		h := atomic.LoadUint32(a.slot(link))
		pin := atomic.LoadUint32(a.slot(link + 1))
		if hdrClass(h) != classLeaf || pin == 0 {
			break
		}
		blk := atomic.LoadUint32(a.slot(pin)) &^ pinLock
		if atomic.LoadUint32(a.slot(blk)) != 1 { // one entry, sorted
			break
		}
		pos = next
		it.leafPin, it.blk = pin, blk
		if !f.direct {
			it.touchAhead(f, pos)
		}
		e := &it.ahead[n]
		x := entryAt(blk, 0)
		e.tag = base.Trailer(*a.slot(x + 1))<<32 | base.Trailer(*a.slot(x))
		e.voff, e.vlen = *a.slot(x + 2), *a.slot(x + 3)
		e.newKey = true
		kStart := len(keys)
		keys = append(keys, label)
		keys = append(keys, unsafe.Slice((*byte)(unsafe.Pointer(a.slot(link+2))), hdrZlen(h))...)
		if stable {
			e.key = it.stableCopy(it.buf[:prefix], keys[kStart:])
		}
		e.pStart, e.pEnd = pStart, pEnd
		e.kStart, e.kEnd = uint32(kStart), uint32(len(keys))
		n++
	}
	if pos == f.pos {
		it.aheadKeys = keys[:pStart]
		return n
	}
	it.buf = append(it.buf[:prefix], keys[it.ahead[n-1].kStart:]...)
	it.aheadKeys = keys
	f.pos = pos
	it.leafEnd = len(it.buf)
	it.num, it.v, it.sorted = 1, 0, true
	it.walkNewKey = true
	return n
}
