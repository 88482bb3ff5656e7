package skiplist

import (
	"bytes"
	"encoding/binary"
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable/internal/kvbytes"
	"github.com/godbbench/godbbench/memtable/internal/sortedrun"
)

// A node is one internal key with its value, in one allocation of the arena
// (arena.go), laid out as RocksDB's InlineSkipList lays out a memtable
// entry, plus a backward link at level 0: the links of the levels above 0
// before the node, the entry after it. A node of height h is referred to by
// the offset of its level-0 link (4-byte units, see arena.go); from that
// address:
//
//	-4*(h-1)  next[h-1] ... next[1]  u32 offsets, higher levels first
//	 0        next[0]                u32 offset, 0 is nil
//	 4        prev                   u32 offset, a level-0 predecessor (hint)
//	 8        trailer                u64 little-endian, base.Trailer (seq<<8 | kind)
//	16        key length             varint32 (1 byte below 128)
//	          key bytes
//	          value length           varint32
//	          value bytes
//	          zero padding to a multiple of 4
//
// The node keeps no height: a search only follows level i of a node it
// reached at level i or above, as in InlineSkipList.
//
// prev is a node that was, at some moment, immediately before this one at
// level 0 (the head's offset for the first node): it is written before the
// node is linked and again by every insert that links a node right before
// it. Since nodes are never unlinked, prev always sorts before the node,
// but a concurrent insert may have put nodes between them; Iter.Prev checks
// prev's next link and walks forward from prev when it does not lead back
// (iter.go).
//
// Example: key "ab", seq 7, kind Set (1), value "xyz", height 2, allocated
// at byte offset 0x200000, the first chunk's start (the node's offset is
// 0x80001, its level-0 link's), first in the list (prev is the head, 11):
//
//	0x200000: 00 00 00 00               next[1] = nil
//	0x200004: 00 00 00 00               next[0] = nil
//	0x200008: 0b 00 00 00               prev = 11, the head
//	0x20000c: 01 07 00 00 00 00 00 00   trailer 7<<8|1
//	0x200014: 02 61 62                  key length 2, "ab"
//	0x200017: 03 78 79 7a               value length 3, "xyz"
//	0x20001b: 00                        padding
//
// Per entry that is 4 bytes a level (1.33 levels on average), 16 bytes of
// link 0, prev and trailer, the key and the value with a length byte each
// (below 128 bytes), padded to 4: 37.3 bytes for db_bench's 16-byte keys and
// no value, 29.3 for memtablerep_bench's 8-byte keys.
const (
	offPrev    = 4
	offTrailer = 8
	offKey     = 16
	linkSize   = 4
)

// The head node fills window 0: maxHeight links, prev, a trailer and the
// lengths of an empty key and value.
const (
	headWords = 16
	headRef   = maxHeight - 1
)

var _ [headWords*4 - (maxHeight*linkSize + offKey - linkSize + 2)]byte // the head fits

// nodeSize is the bytes of a node of height h for a key of kl bytes and a
// value of vl bytes.
func nodeSize(h int, kl, vl uint32) uint64 {
	n := uint64(h)*linkSize + offKey - linkSize + kvbytes.Size(kl, vl)
	return (n + 3) &^ 3
}

// link returns the level-i link of the node at p.
func link(p unsafe.Pointer, i int) *atomic.Uint32 {
	return (*atomic.Uint32)(unsafe.Add(p, -i*linkSize))
}

// prevLink returns the level-0 backward link of the node at p.
func prevLink(p unsafe.Pointer) *atomic.Uint32 {
	return (*atomic.Uint32)(unsafe.Add(p, offPrev))
}

func trailerOf(p unsafe.Pointer) base.Trailer {
	return base.Trailer(binary.LittleEndian.Uint64(unsafe.Slice((*byte)(unsafe.Add(p, offTrailer)), 8)))
}

// keyOf returns the key of the node at p.
func keyOf(p unsafe.Pointer) []byte { return kvbytes.Key(unsafe.Add(p, offKey)) }

// valueOf returns the value of the node at p (nil when empty).
func valueOf(p unsafe.Pointer) []byte { return kvbytes.Value(unsafe.Add(p, offKey)) }

// entryBytes is the bytes of the node at p from its level-0 link to the
// end of its value: what a scan reads of it.
func entryBytes(p unsafe.Pointer) uintptr {
	return uintptr(offKey + kvbytes.Len(unsafe.Add(p, offKey)))
}

// writeNode fills the entry part of a freshly allocated node at p.
func writeNode(p unsafe.Pointer, trailer base.Trailer, key, value []byte) {
	binary.LittleEndian.PutUint64(unsafe.Slice((*byte)(unsafe.Add(p, offTrailer)), 8), uint64(trailer))
	kvbytes.Put(unsafe.Add(p, offKey), key, value)
}

// lookup is an internal key being searched for, with its prefix computed
// once.
type lookup = sortedrun.Target

// lookupOf is the internal key of the node at p.
func lookupOf(p unsafe.Pointer) lookup { return sortedrun.NewTarget(keyOf(p), trailerOf(p)) }

// cmp compares the node at p with the internal key t.
func cmp(p unsafe.Pointer, t *lookup) int {
	if c := prefixCmp(p, t); c != 0 {
		return c
	}
	return cmpAny(p, t)
}

// prefixCmp is cmp when the first 8 key bytes settle it, otherwise 0
// (kvbytes.PrefixCmp).
func prefixCmp(p unsafe.Pointer, t *lookup) int {
	return kvbytes.PrefixCmp(unsafe.Add(p, offKey), t.Prefix)
}

// cmpAny is cmp for every key length.
func cmpAny(p unsafe.Pointer, t *lookup) int {
	kp := unsafe.Add(p, offKey+1)
	kl := uint32(*(*byte)(unsafe.Add(p, offKey)))
	if kl >= 0x80 {
		var n int
		kl, n = kvbytes.Varint(unsafe.Add(p, offKey))
		kp = unsafe.Add(p, offKey+n)
	}
	var prefix uint64
	if kl >= 8 {
		prefix = binary.BigEndian.Uint64((*[8]byte)(kp)[:])
	} else {
		prefix = base.KeyPrefix(unsafe.Slice((*byte)(kp), kl))
	}
	if prefix != t.Prefix {
		if prefix < t.Prefix {
			return -1
		}
		return 1
	}
	return cmpTail(p, unsafe.Slice((*byte)(kp), kl), t)
}

// cmpTail is cmp for keys with equal prefixes: the whole key, then the
// trailer.
func cmpTail(p unsafe.Pointer, key []byte, t *lookup) int {
	if c := bytes.Compare(key, t.Key); c != 0 {
		return c
	}
	return base.CompareTrailers(trailerOf(p), t.Trailer)
}
