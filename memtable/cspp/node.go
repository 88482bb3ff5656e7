package cspp

import "math/bits"

// Node header word (slot 0 of every node):
//
//	bits  0..3   class: index into classCap (child capacity)
//	bit   4      lock: held by a writer changing this node
//	bit   5      dead: the node was replaced by a copy; never cleared
//	bits  6..14  count: children in use (0..256)
//	bits 15..31  zlen: bytes of the compressed path (0..maxZpath)
const (
	hdrClassMask  = 0xf
	hdrLock       = 1 << 4
	hdrDead       = 1 << 5
	hdrCountShift = 6
	hdrCountMask  = 0x1ff
	hdrZlenShift  = 15
	maxZpath      = 1<<17 - 1
)

// classCap is the child capacity of each node class. A node that runs out of
// capacity is copied into the next class. The last class is the direct node:
// 256 child links indexed by the label byte, no label array.
//
// Growing 1->2->4->8->16 leaves 4+5+7+12 = 28 dead slots behind a node that
// ends with 16 children: 7 bytes per child. Classes 32 and 48 exist so that a
// node with 17..48 children costs 2+12+48 = 62 slots instead of the 258 of a
// direct node: with random keys about a third of the level-2 nodes of a
// million-key trie hold more than 16 children.
var classCap = [...]uint32{0, 1, 2, 4, 8, 16, 32, 48, 256}

const (
	classLeaf   = 0
	classDirect = uint32(len(classCap) - 1)
)

// classLabelSlots is the number of label slots of each class: 4 labels a slot.
var classLabelSlots = [...]uint32{0, 1, 1, 1, 2, 4, 8, 12, 0}

// directNodeSlots is the size of a direct node without a compressed path.
const directNodeSlots = 2 + 256

// rootOffset is the fixed slot of the root: a direct node that is never
// replaced, never has a compressed path and whose value pin is the empty key's.
const rootOffset = 1

func makeHeader(class, count, zlen uint32) uint32 {
	return class | count<<hdrCountShift | zlen<<hdrZlenShift
}

func hdrClass(h uint32) uint32 { return h & hdrClassMask }
func hdrCount(h uint32) uint32 { return h >> hdrCountShift & hdrCountMask }
func hdrZlen(h uint32) uint32  { return h >> hdrZlenShift }

// nodeSlots is the size in slots of a node of class c with a zlen-byte path.
func nodeSlots(c uint32, zlen int) uint32 {
	return 2 + classLabelSlots[c] + classCap[c] + slotsFor(zlen)
}

// childBase is the slot of the first child link of node n of class c.
func childBase(n, c uint32) uint32 { return n + 2 + classLabelSlots[c] }

// zpathSlot is the first slot of the compressed path of node n of class c.
func zpathSlot(n, c uint32) uint32 { return childBase(n, c) + classCap[c] }

// classFor is the smallest class holding count children.
func classFor(count uint32) uint32 {
	for c := uint32(0); c < classDirect; c++ {
		if classCap[c] >= count {
			return c
		}
	}
	return classDirect
}

// zpath returns the compressed path of node n with header h.
func (a *arena) zpath(n, h uint32) []byte {
	z := hdrZlen(h)
	if z == 0 {
		return nil
	}
	return a.byteRange(zpathSlot(n, hdrClass(h)), z)
}

// findChild returns the slot holding the link to the child of node n (header
// h) labelled b, or 0 when there is none. Labels of a small node are unsorted
// (children are appended in place); they are searched four at a time with
// the classic zero-byte test: for x = word ^ (b * 0x01010101) the lowest set
// bit of (x - 0x01010101) &^ x & 0x80808080 marks the first matching label.
func (a *arena) findChild(n, h uint32, b byte) uint32 {
	c := hdrClass(h)
	if c == classDirect {
		s := n + 2 + uint32(b)
		if a.load(s) == 0 {
			return 0
		}
		return s
	}
	cnt := hdrCount(h)
	pat := uint32(b) * 0x01010101
	for w := uint32(0); w*4 < cnt; w++ {
		x := a.load(n+2+w) ^ pat
		m := (x - 0x01010101) &^ x & 0x80808080
		if m != 0 {
			j := w*4 + uint32(bits.TrailingZeros32(m))/8
			if j < cnt {
				return childBase(n, c) + j
			}
			return 0
		}
	}
	return 0
}

// children holds the children of a node, gathered for copying.
type children struct {
	n      int
	labels [256]byte
	links  [256]uint32
}

// gather reads the children of node n (header h) into ch, in slot order for
// a small node and label order for a direct node.
func (a *arena) gather(n, h uint32, ch *children) {
	c := hdrClass(h)
	ch.n = 0
	if c == classDirect {
		for b := uint32(0); b < 256; b++ {
			if l := a.load(n + 2 + b); l != 0 {
				ch.labels[ch.n] = byte(b)
				ch.links[ch.n] = l
				ch.n++
			}
		}
		return
	}
	cnt := hdrCount(h)
	base := childBase(n, c)
	for j := uint32(0); j < cnt; j++ {
		ch.labels[j] = byte(a.load(n+2+j/4) >> (8 * (j % 4)))
		ch.links[j] = a.load(base + j)
	}
	ch.n = int(cnt)
}

// writeNode lays out a fresh, unpublished node at off: class c, compressed
// path zp, value pin, and the children labels[i] -> links[i] (at most
// classCap[c] of them).
func (a *arena) writeNode(off, c uint32, zp []byte, pin uint32, labels []byte, links []uint32) {
	a.slots[off] = makeHeader(c, uint32(len(links)), uint32(len(zp)))
	a.slots[off+1] = pin
	if c == classDirect {
		for i, l := range links {
			a.slots[off+2+uint32(labels[i])] = l
		}
	} else {
		base := childBase(off, c)
		for i, l := range links {
			a.slots[off+2+uint32(i)/4] |= uint32(labels[i]) << (8 * (uint32(i) % 4))
			a.slots[base+uint32(i)] = l
		}
	}
	if len(zp) > 0 {
		a.putBytes(zpathSlot(off, c), zp)
	}
}

// leafSlots is the size of the chain of nodes that holds a key suffix: one
// leaf when the suffix fits a compressed path, otherwise one-child nodes of
// maxZpath bytes plus a label each, ending in a leaf.
func leafSlots(suffix int) uint32 {
	var n uint32
	for suffix > maxZpath {
		n += nodeSlots(1, maxZpath)
		suffix -= maxZpath + 1
	}
	return n + nodeSlots(classLeaf, suffix)
}

// writeLeaf lays out the chain for suffix at off (leafSlots(len(suffix))
// slots) with pin as the value of its last node, and returns off.
func (a *arena) writeLeaf(off uint32, suffix []byte, pin uint32) uint32 {
	at := off
	for len(suffix) > maxZpath {
		next := at + nodeSlots(1, maxZpath)
		a.writeNode(at, 1, suffix[:maxZpath], 0, suffix[maxZpath:maxZpath+1], []uint32{next})
		suffix = suffix[maxZpath+1:]
		at = next
	}
	a.slots[at] = makeHeader(classLeaf, 0, uint32(len(suffix)))
	a.slots[at+1] = pin
	if len(suffix) > 0 {
		a.putBytes(at+2, suffix)
	}
	return off
}
