package offsetskiplist

import (
	"bytes"
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable/internal/kvbytes"
)

// A node is one user key with its first version, in one allocation of the
// node stream (arena.go). A node of height h is referred to by the offset
// of its level-0 link (4-byte units); from that address:
//
//	-4*(h-1)  next[h-1] ... next[1]  u32 offsets, higher levels first
//	 0        next[0]                u32 offset, 0 is nil
//	 4        prev                   u32 offset, a level-0 predecessor (hint)
//	 8        tag                    u32, the key's versions (versions.go)
//	12        key length             varint32 (1 byte below 128)
//	          key bytes
//	          value length           varint32
//	          value bytes            the value of the version the node was
//	                                 made for
//	          zero padding to a multiple of 4
//
// The node keeps no height: a search follows level i only of a node it
// reached at level i or above, as in InlineSkipList.
//
// prev is a node that was, at some moment, immediately before this one at
// level 0 (the head for the first node). The insert writes it before the
// level-0 CAS that links the node, and after that CAS writes the new node's
// offset into the prev of the node that follows it. Nodes are never
// unlinked, so prev always sorts before the node; but two inserts next to
// each other may store in either order, leaving a prev with nodes between
// it and this one. Iter.Prev takes prev when its next link leads back,
// else walks forward from it (iter.go).
//
// Example: key "ab", seq 7 in a list whose first Add had seq 5, kind Set
// (1), value "xyz", height 2, allocated at byte offset 0x100000 (the node's
// offset is 0x40001, its level-0 link's), first in a list whose head is at
// offset 0x0d:
//
//	0x100000: 00 00 00 00   next[1] = nil
//	0x100004: 00 00 00 00   next[0] = nil
//	0x100008: 0d 00 00 00   prev = 0x0d, the head
//	0x10000c: 41 00 00 00   tag: sequence 7-5 = 2 <<5 | kind 1
//	0x100010: 02 61 62      key length 2, "ab"
//	0x100013: 03 78 79 7a   value length 3, "xyz"
//	0x100017: 00            padding
//
// Per new user key that is 4 bytes a level (1.33 levels on average), 12 of
// link 0, prev and tag, the key and the value with a length byte each
// (below 128 bytes), padded to 4: 25.3 bytes for memtablerep_bench's 8-byte
// keys and no value, 73.3 with 50-byte values, where package skiplist, which
// keeps an 8-byte trailer in each node, takes 29.3 and 77.3.
const (
	linkSize = 4
	offPrev  = 4
	offTag   = 8
	offKey   = 12
)

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

// prevLink returns the level-0 predecessor hint of the node at p.
func prevLink(p unsafe.Pointer) *atomic.Uint32 { return (*atomic.Uint32)(unsafe.Add(p, offPrev)) }

// tagOf returns the tag word of the node at p.
func tagOf(p unsafe.Pointer) *atomic.Uint32 { return (*atomic.Uint32)(unsafe.Add(p, offTag)) }

// keyOf returns the user key of the node at p.
func keyOf(p unsafe.Pointer) []byte { return kvbytes.Key(unsafe.Add(p, offKey)) }

// entryBytes is the bytes of the node at p from its level-0 link to the end
// of its value: what a scan reads of it.
func entryBytes(p unsafe.Pointer) uintptr {
	return uintptr(offKey + kvbytes.Len(unsafe.Add(p, offKey)))
}

// nodeValue returns the value stored in the node at p (nil when empty).
func nodeValue(p unsafe.Pointer) []byte { return kvbytes.Value(unsafe.Add(p, offKey)) }

// writeNode fills the tag, key and value of a freshly allocated node at p.
func writeNode(p unsafe.Pointer, tag uint32, key, value []byte) {
	tagOf(p).Store(tag)
	kvbytes.Put(unsafe.Add(p, offKey), key, value)
}

// lookup is a user key being searched for, with its first 8 bytes as a
// big-endian integer (base.KeyPrefix), computed once.
type lookup struct {
	key    []byte
	prefix uint64
}

func lookupFor(key []byte) lookup { return lookup{key: key, prefix: base.KeyPrefix(key)} }

// cmp compares the key of the node at p with t's.
func cmp(p unsafe.Pointer, t *lookup) int {
	if c := prefixCmp(p, t); c != 0 {
		return c
	}
	return cmpAny(p, t)
}

// prefixCmp is cmp when the first 8 key bytes settle it, otherwise 0
// (kvbytes.PrefixCmp).
func prefixCmp(p unsafe.Pointer, t *lookup) int {
	return kvbytes.PrefixCmp(unsafe.Add(p, offKey), t.prefix)
}

// sameKey reports whether the node at p holds t's user key. An 8-byte key
// (memtablerep_bench's) is its length byte and one 64-bit load from each
// side, inlined; other keys are compared whole by sameKeyAny.
func sameKey(p unsafe.Pointer, t *lookup) bool {
	kp := unsafe.Add(p, offKey)
	if *(*byte)(kp) == 8 && len(t.key) == 8 {
		return *(*uint64)(unsafe.Add(kp, 1)) == *(*uint64)(unsafe.Pointer(unsafe.SliceData(t.key)))
	}
	return sameKeyAny(p, t)
}

// sameKeyAny is sameKey for every key length.
func sameKeyAny(p unsafe.Pointer, t *lookup) bool {
	return bytes.Equal(keyOf(p), t.key)
}

// cmpAny is cmp for every key length. A shorter key's prefix is padded with
// zero bytes; when two prefixes differ, they order the keys as the keys
// themselves.
func cmpAny(p unsafe.Pointer, t *lookup) int {
	k := keyOf(p)
	if prefix := base.KeyPrefix(k); prefix != t.prefix {
		if prefix < t.prefix {
			return -1
		}
		return 1
	}
	return bytes.Compare(k, t.key)
}
