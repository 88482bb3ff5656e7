package offsetskiplist

import (
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/invariants"
)

// Versions. A node's tag word (node.go) says where the versions of its user
// key are.
//
// Inline, bit 31 clear: the node holds the key's only version, and its
// value is the node's.
//
//	bits 30..5  sequence minus the list's base sequence (the first Add's),
//	            below 2^26
//	bits 4..0   kind, below 32
//
// Chain, bit 31 set: bits 30..0 are a version ref, the byte offset of a
// version record divided by 8. Records live in the value stream (arena.go)
// at 8-byte alignment, sorted by trailer descending and linked by refs:
//
//	 0  trailer  u64  base.Trailer (two u32 words, low word first)
//	 8  next     u32  ref of the next older record with bit 31 set, 0 at
//	                  the end
//	12  valLen   u32  value length, or inNode when the value is the node's
//	16  value bytes, or for inNode the node's offset (u32)
//	    zero padding to a multiple of 8
//
// A node starts inline when its sequence and kind fit (the kinds are all
// below 32, and a memtable spans fewer than 2^26 sequence numbers unless it
// is enormous), or else with a chain of one inNode record. A second version
// turns an inline node into a chain of two records, one of them the inNode
// record of the first version, with one CAS on the tag; each later version
// is pushed into the chain with one CAS on the link it goes in at. Tags and
// links only ever change from one published state to another, so a reader
// sees a sorted, consistent chain at every moment.
//
// Example: a node at offset 0x40001 whose key got seq 9 (kind Set, value
// "new") after seq 7, its first version, with records at byte offsets
// 0x300000 and 0x300018: the tag is 0x80060000 (bit 31 | 0x300000/8), and
//
//	0x300000: 01 09 00 00 00 00 00 00   trailer 9<<8|1
//	0x300008: 03 00 06 80               next: bit 31 | 0x300018/8
//	0x30000c: 03 00 00 00               valLen 3
//	0x300010: 6e 65 77 00 00 00 00 00   "new" + padding
//	0x300018: 01 07 00 00 00 00 00 00   trailer 7<<8|1
//	0x300020: 00 00 00 00               next: end
//	0x300024: ff ff ff ff               inNode
//	0x300028: 01 00 04 00 00 00 00 00   node 0x40001 + padding
const (
	chainBit   = 1 << 31
	kindBits   = 5
	maxDelta   = 1 << 26
	noBase     = ^uint64(0)
	recHeader  = 16
	offRecNext = 8
	offRecLen  = 12
	inNode     = ^uint32(0)
)

// inlineTag returns the inline tag for trailer, if it has one.
func (l *List) inlineTag(t base.Trailer) (uint32, bool) {
	b := l.seqBase.Load()
	if b == noBase {
		l.seqBase.CompareAndSwap(noBase, t.Seq())
		b = l.seqBase.Load()
	}
	seq, kind := t.Seq(), t.Kind()
	if seq < b || seq-b >= maxDelta || kind >= 1<<kindBits {
		return 0, false
	}
	return uint32(seq-b)<<kindBits | uint32(kind), true
}

// inlineTrailer decodes an inline tag.
func (l *List) inlineTrailer(tag uint32) base.Trailer {
	return base.MakeTrailer(l.seqBase.Load()+uint64(tag>>kindBits), base.Kind(tag&(1<<kindBits-1)))
}

// rec resolves a version ref (bit 31 set) to its record's address.
func (l *List) rec(ref uint32) unsafe.Pointer { return l.r.addr((ref &^ chainBit) << 1) }

func recTrailer(r unsafe.Pointer) base.Trailer {
	return base.Trailer(*(*uint32)(r)) | base.Trailer(*(*uint32)(unsafe.Add(r, 4)))<<32
}

func recNext(r unsafe.Pointer) *atomic.Uint32 { return (*atomic.Uint32)(unsafe.Add(r, offRecNext)) }

// recValue returns the value of the record at r.
func (l *List) recValue(r unsafe.Pointer) []byte {
	vl := *(*uint32)(unsafe.Add(r, offRecLen))
	if vl == inNode {
		return nodeValue(l.r.addr(*(*uint32)(unsafe.Add(r, recHeader))))
	}
	if vl == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Add(r, recHeader)), vl)
}

// newRecord writes a record for trailer with value, or for the value of
// node n when n is not 0, and returns its ref. Its next link is 0.
func (l *List) newRecord(t base.Trailer, value []byte, n uint32) (uint32, error) {
	size := uint64(recHeader + 4)
	if n == 0 {
		size = recHeader + uint64(len(value))
	}
	off, err := l.a.alloc((size+7)&^7, streamValues)
	if err != nil {
		return 0, err
	}
	r := l.r.addr(off)
	*(*uint32)(r) = uint32(t)
	*(*uint32)(unsafe.Add(r, 4)) = uint32(t >> 32)
	if n != 0 {
		*(*uint32)(unsafe.Add(r, offRecLen)) = inNode
		*(*uint32)(unsafe.Add(r, recHeader)) = n
	} else {
		*(*uint32)(unsafe.Add(r, offRecLen)) = uint32(len(value))
		// An empty value forms no pointer past the header: a 16-byte
		// record may end its chunk, and one past it is another object.
		if len(value) > 0 {
			copy(unsafe.Slice((*byte)(unsafe.Add(r, recHeader)), len(value)), value)
		}
	}
	return chainBit | off>>1, nil
}

// addVersion adds (trailer, value) to the existing node n at np.
func (l *List) addVersion(n uint32, np unsafe.Pointer, t base.Trailer, value []byte) error {
	ref, err := l.newRecord(t, value, 0)
	if err != nil {
		return err
	}
	tag := tagOf(np)
	first := uint32(0) // the record of the inline version, made once
	for {
		cur := tag.Load()
		if cur&chainBit != 0 {
			l.pushVersion(tag, ref, t, np)
			return nil
		}
		old := l.inlineTrailer(cur)
		if invariants.Enabled && old.Seq() == t.Seq() {
			invariants.Violated("offsetskiplist: entry (%q, seq %d) added twice", keyOf(np), t.Seq())
		}
		if first == 0 {
			if first, err = l.newRecord(old, nil, n); err != nil {
				return err
			}
		}
		head := ref
		if t > old {
			recNext(l.rec(ref)).Store(first)
			recNext(l.rec(first)).Store(0)
		} else {
			recNext(l.rec(first)).Store(ref)
			recNext(l.rec(ref)).Store(0)
			head = first
		}
		if tag.CompareAndSwap(cur, head) {
			return nil
		}
	}
}

// pushVersion links record ref (already written) into the chain whose head
// is at, keeping it sorted by trailer descending. One CAS publishes it.
func (l *List) pushVersion(at *atomic.Uint32, ref uint32, t base.Trailer, np unsafe.Pointer) {
	for {
		cur := at.Load()
		if cur != 0 {
			ct := recTrailer(l.rec(cur))
			if invariants.Enabled && ct.Seq() == t.Seq() {
				invariants.Violated("offsetskiplist: entry (%q, seq %d) added twice", keyOf(np), t.Seq())
			}
			if ct > t {
				at = recNext(l.rec(cur))
				continue
			}
		}
		recNext(l.rec(ref)).Store(cur)
		if at.CompareAndSwap(cur, ref) {
			return
		}
	}
}

// value returns the value of version ref of the node at np.
func (l *List) value(np unsafe.Pointer, ref uint32) []byte {
	if ref == 0 {
		return nodeValue(np)
	}
	return l.recValue(l.rec(ref))
}
