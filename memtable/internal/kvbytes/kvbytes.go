// Package kvbytes reads and writes a key and a value stored back to back,
// each after its length, the tail of RocksDB's memtable entry that
// memtable/skiplist and memtable/offsetskiplist keep in their nodes:
//
//	key length    varint32 (1 byte below 128)
//	key bytes
//	value length  varint32
//	value bytes
//
// Example: key "ab", value "xyz" is 02 61 62 03 78 79 7a.
//
// Contract: the functions take the address of the key length, in memory
// outside the Go heap or in a []byte the caller keeps alive; Put's
// destination must have Size(len(key), len(value)) bytes. Returned slices
// alias that memory. Nothing is checked: callers wrote the bytes.
package kvbytes

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// Size is the bytes of a key of kl bytes and a value of vl bytes with
// their lengths.
func Size(kl, vl uint32) uint64 {
	return uint64(VarintLen(kl)) + uint64(kl) + uint64(VarintLen(vl)) + uint64(vl)
}

// Len is the bytes of the key and value stored at p with their lengths:
// Size of their lengths, read from p.
func Len(p unsafe.Pointer) uint64 {
	kl, n := Varint(p)
	vl, m := Varint(unsafe.Add(p, n+int(kl)))
	return uint64(n) + uint64(kl) + uint64(m) + uint64(vl)
}

// Key returns the key stored at p.
func Key(p unsafe.Pointer) []byte {
	kl, n := Varint(p)
	return unsafe.Slice((*byte)(unsafe.Add(p, n)), kl)
}

// Value returns the value stored after the key at p (nil when empty).
func Value(p unsafe.Pointer) []byte {
	kl, n := Varint(p)
	q := unsafe.Add(p, n+int(kl))
	vl, m := Varint(q)
	if vl == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Add(q, m)), vl)
}

// Put writes key and value at p.
// No pointer it forms goes past the entry's last byte: an entry may end
// its allocation (a node closing a Go-heap chunk), and a pointer one past
// the end would point into the next object.
func Put(p unsafe.Pointer, key, value []byte) {
	q := unsafe.Add(p, putVarint(p, uint32(len(key))))
	copy(unsafe.Slice((*byte)(q), len(key)), key)
	q = unsafe.Add(q, len(key))
	n := putVarint(q, uint32(len(value)))
	if len(value) > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Add(q, n)), len(value)), value)
	}
}

// Varint decodes the varint32 at p and returns it with its length.
func Varint(p unsafe.Pointer) (uint32, int) {
	if b := *(*byte)(p); b < 0x80 {
		return uint32(b), 1
	}
	return longVarint(p)
}

// longVarint is Varint for values of 128 and up. Kept out of line, so that
// Varint's one-byte case inlines into its callers.
//
//go:noinline
func longVarint(p unsafe.Pointer) (uint32, int) {
	v, n := binary.Uvarint(unsafe.Slice((*byte)(p), binary.MaxVarintLen32))
	return uint32(v), n
}

// putVarint writes v as a varint32 at p and returns its length.
func putVarint(p unsafe.Pointer, v uint32) int {
	return binary.PutUvarint(unsafe.Slice((*byte)(p), VarintLen(v)), uint64(v))
}

// VarintLen is the length of v as a varint: one byte per 7 bits.
func VarintLen(v uint32) int { return (bits.Len32(v|1) + 6) / 7 }

// PrefixCmp compares the first 8 bytes of the key stored at p, read as one
// big-endian integer, with prefix (base.KeyPrefix of the key searched for),
// for a key of 8 to 127 bytes. It returns 0 when that does not settle the
// order: equal prefixes, or a key of another length. It inlines, so a search
// loop that makes the full comparison only on 0 settles most steps without a
// call and keeps its registers (Go's calling convention saves none across a
// call).
func PrefixCmp(p unsafe.Pointer, prefix uint64) int {
	if kl := *(*byte)(p); kl-8 < 0x80-8 {
		if x := binary.BigEndian.Uint64((*[8]byte)(unsafe.Add(p, 1))[:]); x != prefix {
			if x < prefix {
				return -1
			}
			return 1
		}
	}
	return 0
}
