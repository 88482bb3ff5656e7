package cspp

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
	"sync/atomic"
)

// frame is one node on the iterator's path from the root.
//
// pos is where the walk stands in the node: -1 at the node's own value (its
// key is the path so far), otherwise at a child: an index into the sorted
// snapshot below for a small node, the label byte itself for a direct node.
type frame struct {
	node   uint32
	pin    uint32 // value pin read when the frame was pushed; 0 for none
	zStart int    // the node's compressed path is buf[zStart:keyEnd]
	keyEnd int
	pos    int
	direct bool
	// n, labels and links are a snapshot of a small node's children sorted
	// by label (small nodes keep their labels unsorted). Direct nodes are
	// read live: their links are already in label order.
	n      int
	labels [48]byte
	links  [48]uint32
}

func (it *Iter) top() *frame { return &it.stack[len(it.stack)-1] }

// push descends into node n, reached through label (ignored for the root).
func (it *Iter) push(n uint32, label byte) {
	a := it.a
	h := a.load(n)
	if len(it.stack) == 0 {
		it.buf = it.buf[:0]
	} else {
		it.buf = append(it.buf[:it.top().keyEnd], label)
	}
	zStart := len(it.buf)
	it.buf = append(it.buf, a.zpath(n, h)...)
	if len(it.stack) < cap(it.stack) {
		it.stack = it.stack[:len(it.stack)+1]
	} else {
		it.stack = append(it.stack, frame{})
	}
	f := it.top()
	f.node = n
	f.pin = a.load(n + 1)
	f.zStart = zStart
	f.keyEnd = len(it.buf)
	f.pos = -1
	c := hdrClass(h)
	f.direct = c == classDirect
	f.n = 0
	if f.direct {
		return
	}
	cnt := int(hdrCount(h))
	f.n = cnt
	// A link is rewritten when its child is replaced by a copy, and a
	// label word may be gaining a label past the count: both are loaded
	// atomically.
	base := childBase(n, c)
	for j := 0; j < cnt; j++ {
		f.links[j] = atomic.LoadUint32(a.slot(base + uint32(j)))
	}
	for w := 0; w*4 < cnt; w++ {
		binary.LittleEndian.PutUint32(f.labels[w*4:], a.load(n+2+uint32(w)))
	}
	for j := 1; j < cnt; j++ {
		if f.labels[j-1] > f.labels[j] {
			sortChildren(f)
			return
		}
	}
}

// sortChildren sorts the first f.n children of f by label. Labels of one
// node are distinct bytes, so it marks them in a 256-bit set, remembering
// each one's index, and reads the set back in order, with no comparisons
// between children. Readseq after fillrandom of 1M keys (about 15 children
// a node, added in random order): 37.5 instructions an entry against 50.5
// for the insertion sort it replaces (docs/BENCHMARKS.md, "offset_skiplist's
// Next; cspp's scan per entry"). Should a snapshot ever hold a label twice,
// the copy is dropped and f.n shrinks.
func sortChildren(f *frame) {
	var set [4]uint64
	var at [256]uint8
	for j, l := range f.labels[:f.n] {
		set[l>>6] |= 1 << (l & 63)
		at[l] = uint8(j)
	}
	links := f.links
	k := 0
	for w, word := range set {
		for ; word != 0; word &= word - 1 {
			l := w<<6 | bits.TrailingZeros64(word)
			f.labels[k], f.links[k] = byte(l), links[at[l]]
			k++
		}
	}
	f.n = k
}

func (it *Iter) reset() {
	it.stack = it.stack[:0]
	it.inLeaf = false
	it.push(rootOffset, 0)
}

// enterLeaf stands the walk in child link of the top frame f, labelled
// label, when that child is a leaf with a value, and reports whether it
// did. A leaf gets no frame of its own: f.pos stays at it, its pin is
// leafPin, and its key (f's key, the label, the leaf's compressed path) is
// built into buf only when asked for (leafKey). A leaf never gains children
// in place (its class holds none; a writer replaces it by a copy), so the
// walk need not look at it again to step past it.
func (it *Iter) enterLeaf(f *frame, link uint32, label byte) bool {
	a := it.a
	h := a.load(link)
	if hdrClass(h) != classLeaf {
		return false
	}
	pin := a.load(link + 1)
	if pin == 0 {
		return false
	}
	it.leaf, it.leafHdr, it.leafLabel, it.leafPin = link, h, label, pin
	it.leafEnd, it.inLeaf = -1, true
	return true
}

// leafKey builds the key of the leaf the walk stands in into buf. It reads
// the leaf's compressed path, so the iterator must be registered.
func (it *Iter) leafKey() {
	it.buf = append(it.buf[:it.top().keyEnd], it.leafLabel)
	it.buf = append(it.buf, it.a.zpath(it.leaf, it.leafHdr)...)
	it.leafEnd = len(it.buf)
}

// curKey is the walk's current key, in buf (overwritten by the next step).
// It builds a leaf's key first when needed, so the iterator must be
// registered unless the key was built before it let go (release).
func (it *Iter) curKey() []byte {
	if !it.inLeaf {
		return it.buf[:it.top().keyEnd]
	}
	if it.leafEnd < 0 {
		it.leafKey()
	}
	return it.buf[:it.leafEnd]
}

// maxPos is the last child position of f (-1 when a small node has none).
func maxPos(f *frame) int {
	if f.direct {
		return 255
	}
	return f.n - 1
}

// childAtOrAfter is the first child position >= p, or -1.
func (it *Iter) childAtOrAfter(f *frame, p int) int {
	if !f.direct {
		if p < f.n {
			return p
		}
		return -1
	}
	for b := p; b < 256; b++ {
		if it.a.load(f.node+2+uint32(b)) != 0 {
			return b
		}
	}
	return -1
}

// childAtOrBefore is the last child position <= p, or -1.
func (it *Iter) childAtOrBefore(f *frame, p int) int {
	if !f.direct {
		return min(p, f.n-1)
	}
	for b := min(p, 255); b >= 0; b-- {
		if it.a.load(f.node+2+uint32(b)) != 0 {
			return b
		}
	}
	return -1
}

// child returns the link and label at position p of f.
func (it *Iter) child(f *frame, p int) (uint32, byte) {
	if f.direct {
		return it.a.load(f.node + 2 + uint32(p)), byte(p)
	}
	return f.links[p], f.labels[p]
}

// labelAtOrAfter is the position of the first child labelled >= b, or -1.
func (it *Iter) labelAtOrAfter(f *frame, b byte) int {
	if f.direct {
		return it.childAtOrAfter(f, int(b))
	}
	for p := 0; p < f.n; p++ {
		if f.labels[p] >= b {
			return p
		}
	}
	return -1
}

// labelAtOrBefore is the position of the last child labelled <= b, or -1.
func (it *Iter) labelAtOrBefore(f *frame, b byte) int {
	if f.direct {
		return it.childAtOrBefore(f, int(b))
	}
	for p := f.n - 1; p >= 0; p-- {
		if f.labels[p] <= b {
			return p
		}
	}
	return -1
}

// loadVersions makes the version vector of pin current and returns its size.
func (it *Iter) loadVersions(pin uint32) uint32 {
	blk, num, sorted := it.a.block(pin)
	it.blk, it.num, it.sorted = blk, num, sorted
	if !sorted {
		it.order = it.order[:0]
		for k := uint32(0); k < num; k++ {
			it.order = append(it.order, k)
		}
		a := it.a
		slices.SortFunc(it.order, func(x, y uint32) int {
			return cmp.Compare(a.entryTag(entryAt(blk, x)), a.entryTag(entryAt(blk, y)))
		})
	}
	return num
}

// entry is the slot of the version of rank k of the current vector.
func (it *Iter) entry(k uint32) uint32 {
	if it.sorted {
		return entryAt(it.blk, k)
	}
	return entryAt(it.blk, it.order[k])
}

// atValue positions the iterator on the version of rank v of the vector last
// loaded: the leaf the walk stands in (inLeaf), or else the top frame's own
// value.
func (it *Iter) atValue(v uint32) bool {
	if !it.inLeaf {
		it.top().pos = -1
	}
	it.v = v
	it.valid = true
	it.keyReady = false
	return true
}

// forward moves to the first entry at or after position p of the top frame
// in pre-order (p == -1: the node's own value first), climbing up when the
// frame is exhausted.
func (it *Iter) forward(p int) bool {
	for {
		f := it.top()
		if p == -1 {
			if f.pin != 0 {
				return it.atValue(it.loadVersions(f.pin) - 1)
			}
			p = 0
		}
		if idx := it.childAtOrAfter(f, p); idx >= 0 {
			f.pos = idx
			link, label := it.child(f, idx)
			if !f.direct {
				it.touchAhead(f, idx)
			}
			if it.enterLeaf(f, link, label) {
				return it.atValue(it.loadVersions(it.leafPin) - 1)
			}
			it.push(link, label)
			if t := it.top(); !t.direct {
				it.touchFirst(t)
			}
			if f.direct {
				it.touchNextNode(f, idx)
			}
			p = -1
			continue
		}
		if len(it.stack) == 1 {
			it.valid = false
			return false
		}
		it.stack = it.stack[:len(it.stack)-1]
		p = it.top().pos + 1
	}
}

// touchAhead prefetches what a forward walk will read at the next children
// of small node f while it stands in child idx. Siblings' links are known
// without reading the siblings (the frame's snapshot), unlike a list's next
// node, so their cache misses can overlap with the current child's instead
// of following them, as far ahead as needed to hide a miss:
//   - child idx+touchDist: its first slots and those touchSpan further,
//     which hold a fresh key's leaf, pin, version block and first entry
//     (one run, versions.go);
//   - child idx+2, whose slots the step touchDist-2 back prefetched: the
//     target of its pin, where a leaf that was copied (split, grown) keeps
//     its version block, away from the copy.
//
// The offsets come from the snapshot and from a pin read while registered,
// so they are inside the arena: slot's unchecked arithmetic resolves them.
func (it *Iter) touchAhead(f *frame, idx int) {
	a := it.a
	if j := idx + touchDist; j < f.n {
		l := f.links[j]
		a.touch(l)
		a.touch(l + touchSpan)
	}
	if j := idx + 2; j < f.n {
		if pin := atomic.LoadUint32(a.slot(f.links[j] + 1)); pin != 0 {
			a.touch(pin)
		}
	}
}

// touchAheadDirect is touchAhead for direct node f: the child touchDist
// labels after b, when there is one (with a dense node, as under a trie of
// 10M keys, several children ahead; a label with no child costs one load).
func (it *Iter) touchAheadDirect(f *frame, b int) {
	if b += touchDist; b < 256 {
		a := it.a
		if l := atomic.LoadUint32(a.slot(f.node + 2 + uint32(b))); l != 0 {
			a.touch(l)
			a.touch(l + touchSpan)
		}
	}
}

// touchFirst prefetches the first children of small node f, just pushed by
// a forward walk, as touchAhead would have from the steps before.
func (it *Iter) touchFirst(f *frame) {
	a := it.a
	for j := 0; j < f.n && j < touchDist; j++ {
		l := f.links[j]
		a.touch(l)
		a.touch(l + touchSpan)
	}
}

// touchNextNode prefetches the first lines of the child after idx of direct
// node f, while a forward walk enters child idx: when that child is an inner
// node (most children of a direct node below the root are), the walk will
// copy its header, labels and links once it is done with child idx.
func (it *Iter) touchNextNode(f *frame, idx int) {
	a := it.a
	for b := idx + 1; b < 256 && b <= idx+4; b++ {
		if l := atomic.LoadUint32(a.slot(f.node + 2 + uint32(b))); l != 0 {
			a.touch(l)
			a.touch(l + 16)
			a.touch(l + 32)
			return
		}
	}
}

// touchDist is how many children ahead touchAhead prefetches, and
// touchSpan the slot of a fresh key's run it touches besides the first: a
// leaf with a path of up to 8 bytes, pin, block word and one entry end
// within 9 slots of the leaf's start.
const (
	touchDist = 8
	touchSpan = 9
)

// backward moves to the last entry at or before position p of the top frame
// in pre-order (children <= p, then the node's own value at p == -1; p < -1
// leaves the frame), climbing up when the frame is exhausted.
func (it *Iter) backward(p int) bool {
	for {
		f := it.top()
		if p >= 0 {
			if idx := it.childAtOrBefore(f, p); idx >= 0 {
				f.pos = idx
				link, label := it.child(f, idx)
				if it.enterLeaf(f, link, label) {
					it.loadVersions(it.leafPin)
					return it.atValue(0)
				}
				it.push(link, label)
				p = maxPos(it.top())
				continue
			}
			p = -1
		}
		if p == -1 && f.pin != 0 {
			it.loadVersions(f.pin)
			return it.atValue(0)
		}
		if len(it.stack) == 1 {
			it.valid = false
			return false
		}
		it.stack = it.stack[:len(it.stack)-1]
		p = it.top().pos - 1
	}
}

// next steps the walk to the following entry.
func (it *Iter) next() bool {
	if it.v > 0 {
		it.v--
		return true
	}
	if it.inLeaf {
		it.inLeaf = false
		return it.forward(it.top().pos + 1)
	}
	return it.forward(0)
}

// prev steps the walk to the preceding entry.
func (it *Iter) prev() bool {
	if it.v+1 < it.num {
		it.v++
		return true
	}
	if it.inLeaf {
		it.inLeaf = false
		return it.backward(it.top().pos - 1)
	}
	return it.backward(-2)
}

// seek positions the walk at the first entry >= (key, seq).
func (it *Iter) seek(key []byte, seq uint64) bool {
	it.reset()
	i := 0
	for {
		f := it.top()
		zp := it.buf[f.zStart:f.keyEnd]
		j := commonPrefix(zp, key[i:])
		if j < len(zp) {
			if i+j == len(key) || zp[j] > key[i+j] {
				return it.forward(-1) // the whole subtree is > key
			}
			return it.forward(256) // the whole subtree is < key
		}
		i += len(zp)
		if i == len(key) {
			if f.pin != 0 {
				for k := it.loadVersions(f.pin); k > 0; k-- {
					if it.a.entryTag(it.entry(k-1)).Seq() <= seq {
						return it.atValue(k - 1)
					}
				}
			}
			return it.forward(0)
		}
		b := key[i]
		idx := it.labelAtOrAfter(f, b)
		if idx < 0 {
			return it.forward(256)
		}
		f.pos = idx
		link, label := it.child(f, idx)
		it.push(link, label)
		if label != b {
			return it.forward(-1)
		}
		i++
	}
}

// seekForPrev positions the walk at the last entry <= (key, seq).
func (it *Iter) seekForPrev(key []byte, seq uint64) bool {
	it.reset()
	i := 0
	for {
		f := it.top()
		zp := it.buf[f.zStart:f.keyEnd]
		j := commonPrefix(zp, key[i:])
		if j < len(zp) {
			if i+j == len(key) || zp[j] > key[i+j] {
				return it.backward(-2) // the whole subtree is > key
			}
			return it.backward(maxPos(f)) // the whole subtree is < key
		}
		i += len(zp)
		if i == len(key) {
			if f.pin != 0 {
				num := it.loadVersions(f.pin)
				for k := uint32(0); k < num; k++ {
					if it.a.entryTag(it.entry(k)).Seq() >= seq {
						return it.atValue(k)
					}
				}
			}
			return it.backward(-2)
		}
		b := key[i]
		idx := it.labelAtOrBefore(f, b)
		if idx < 0 {
			return it.backward(-1)
		}
		f.pos = idx
		link, label := it.child(f, idx)
		it.push(link, label)
		if label != b {
			return it.backward(maxPos(it.top()))
		}
		i++
	}
}
