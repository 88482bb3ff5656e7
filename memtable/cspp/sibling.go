package cspp

import "sync/atomic"

// siblingLeaf is Next's fast path for the shape most entries of a big trie
// have: sibling leaves under one inner node. When the walk stands in a leaf
// at its oldest version and the next child of the top frame (from a small
// node's sorted snapshot, or the next link of a direct node) is a leaf with
// a value and a sorted version block, siblingLeaf stands the walk in that
// leaf at its newest version and copies the entry's tag and value location,
// and reports true; anything else (an inner node, an unsorted block, the end
// of the node) is left to the general walk (next, forward) and it reports
// false, having changed nothing.
//
// It reads the sibling in place, four dependent loads (header, pin, block
// word, entry), which the iterator's registration makes safe between calls
// (itercalls.go). The key is not rebuilt: leafEnd = -1 defers that to the
// first caller of Key (or to a release), since a scan that reads only
// values or sequence numbers never needs it.
func (it *Iter) siblingLeaf() bool {
	if it.v != 0 {
		return false
	}
	f := &it.stack[len(it.stack)-1]
	a := it.a
	next := f.pos + 1
	var link uint32
	var label byte
	if f.direct {
		for ; next < 256; next++ {
			if link = atomic.LoadUint32(a.slot(f.node + 2 + uint32(next))); link != 0 {
				break
			}
		}
		if link == 0 {
			return false
		}
		label = byte(next)
	} else {
		if next >= f.n {
			return false
		}
		link, label = f.links[next], f.labels[next]
	}
	h := atomic.LoadUint32(a.slot(link))
	pin := atomic.LoadUint32(a.slot(link + 1))
	if hdrClass(h) != classLeaf || pin == 0 {
		return false
	}
	blk := atomic.LoadUint32(a.slot(pin)) &^ pinLock
	num := atomic.LoadUint32(a.slot(blk))
	if num&unsortedBit != 0 || num == 0 {
		return false
	}
	if f.direct {
		it.touchAheadDirect(f, next)
	} else {
		it.touchAhead(f, next)
	}
	f.pos = next
	it.leaf, it.leafHdr, it.leafLabel, it.leafPin, it.leafEnd = link, h, label, pin, -1
	it.blk, it.num, it.v, it.sorted = blk, num, num-1, true
	it.keyReady = false
	it.loadEntry()
	return true
}
