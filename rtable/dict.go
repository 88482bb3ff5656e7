package rtable

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// Value codec 2 (ValueDict) stores each value as a sequence of operations
// against a dictionary of the table, D: a literal run of bytes stored in
// place, or a copy of a range of D. Decoding a value reads its own stored
// bytes and the ranges of D they name, nothing else.
//
// An operation starts with a uvarint h. When h is even, h/2 >= 1 literal
// bytes follow. When h is odd, uvarint o follows and the operation copies
// (h-1)/2 >= 1 bytes of D starting at offset o (o + length <= len(D)).
// An empty value is stored as nothing; a value's operations end where its
// stored bytes end.

const (
	// MaxDictBytes bounds a table's dictionary: offsets into it take at
	// most 3 uvarint bytes.
	MaxDictBytes = 2 << 20
	// DictSampleBytes is how many bytes of values (the first ones) a
	// Writer holds to choose the dictionary from.
	DictSampleBytes = 8 << 20
	// dictMatch is the shortest copy the encoder looks for: a copy of
	// dictMatch bytes costs at most 4, a literal run one more than its
	// bytes.
	dictMatch = 6
	// dictHashBits sizes the encoder's table of dictionary positions.
	dictHashBits = 20
	// wholeHashBits sizes the encoder's table of whole values that joined
	// the dictionary: small enough to stay in cache.
	wholeHashBits = 16
)

// dictEncoder encodes values against a dictionary that grows by appends.
// It remembers, for each hash of dictMatch bytes, the last dictionary
// position holding them, and for each hash of a value that joined the
// dictionary whole, where it went: a value that recurs whole (the common
// case) is found with one probe of a cache-sized table, where the
// position table, 4 MiB, costs a cache miss.
type dictEncoder struct {
	dict   []byte
	hashed int      // positions below hashed are in table
	table  []uint32 // position + 1 by hash; 0: none
	whole  []uint32 // position + 1 by wholeHash; 0: none
	// offsetBytes is the width copies write their offsets in once the
	// dictionary is final (dictOffsetBytes); 0 while it grows: the
	// shortest uvarint.
	offsetBytes int
}

func newDictEncoder() *dictEncoder {
	return &dictEncoder{table: make([]uint32, 1<<dictHashBits), whole: make([]uint32, 1<<wholeHashBits)}
}

// wholeHash hashes the length and first dictMatch bytes of v, which has
// at least dictMatch bytes.
func wholeHash(v []byte) uint32 {
	return uint32(((load6(v, 0) ^ uint64(len(v))<<48) * 0x9E3779B97F4A7C15) >> (64 - wholeHashBits))
}

// hashAt hashes the dictMatch bytes of b at p; b must hold 8 bytes there
// or be read through load6.
func hashAt(b []byte, p int) uint32 {
	return uint32((load6(b, p) * 0x9E3779B97F4A7C15) >> (64 - dictHashBits))
}

// load6 returns the dictMatch bytes of b at p as an integer.
func load6(b []byte, p int) uint64 {
	if p+8 <= len(b) {
		return binary.LittleEndian.Uint64(b[p:]) & (1<<48 - 1)
	}
	return uint64(binary.LittleEndian.Uint32(b[p:])) | uint64(binary.LittleEndian.Uint16(b[p+4:]))<<32
}

// add appends v to the dictionary and indexes the positions it completes.
func (e *dictEncoder) add(v []byte) {
	if len(v) >= dictMatch {
		e.whole[wholeHash(v)] = uint32(len(e.dict) + 1)
	}
	e.dict = append(e.dict, v...)
	for ; e.hashed+dictMatch <= len(e.dict); e.hashed++ {
		e.table[hashAt(e.dict, e.hashed)] = uint32(e.hashed + 1)
	}
}

// encode appends v's operations to dst: greedily, at each position, the
// longest copy that the last dictionary position with the same dictMatch
// bytes offers, extended backwards over pending literals. A value that
// joined the dictionary whole is one copy of it.
func (e *dictEncoder) encode(dst, v []byte) []byte {
	if len(v) >= dictMatch {
		if c := int(e.whole[wholeHash(v)]) - 1; c >= 0 && c+len(v) <= len(e.dict) && bytes.Equal(e.dict[c:c+len(v)], v) {
			return appendCopy(dst, len(v), c, e.offsetBytes)
		}
	}
	lit, p := 0, 0
	for p+dictMatch <= len(v) {
		c := int(e.table[hashAt(v, p)]) - 1
		if c < 0 || load6(e.dict, c) != load6(v, p) {
			p++
			continue
		}
		l := dictMatch + commonLen(e.dict[c+dictMatch:], v[p+dictMatch:])
		for p > lit && c > 0 && e.dict[c-1] == v[p-1] {
			p, c, l = p-1, c-1, l+1
		}
		dst = appendCopy(appendLiteral(dst, v[lit:p]), l, c, e.offsetBytes)
		p += l
		lit = p
	}
	return appendLiteral(dst, v[lit:])
}

// appendCopy appends a copy of length bytes of the dictionary at offset,
// the offset as a uvarint of width bytes (0: the shortest).
func appendCopy(dst []byte, length, offset, width int) []byte {
	dst = binary.AppendUvarint(dst, uint64(length)<<1|1)
	if width == 0 {
		return binary.AppendUvarint(dst, uint64(offset))
	}
	return appendPaddedUvarint(dst, uint64(offset), width)
}

// appendPaddedUvarint appends v as a uvarint of exactly width bytes: the
// shortest encoding with zero groups of 7 bits added before its last byte
// (binary.Uvarint reads it as v). v must fit in 7×width bits.
func appendPaddedUvarint(dst []byte, v uint64, width int) []byte {
	for range width - 1 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// dictOffsetBytes is the width of every copy's offset in a table whose
// dictionary has dictLen bytes: the uvarint length of the largest offset,
// dictLen-1. Equal widths make equal values store in equal lengths, so a
// table whose values are all whole copies of one length stores them at a
// fixed length and needs no value offsets.
func dictOffsetBytes(dictLen int) int {
	w := 1
	for dictLen-1 >= 1<<(7*w) {
		w++
	}
	return w
}

// padCopies appends to dst the operations src with every copy's offset
// rewritten at width bytes; src is a valid encoding.
func padCopies(dst, src []byte, width int) []byte {
	for len(src) > 0 {
		h, n := binary.Uvarint(src)
		dst = append(dst, src[:n]...)
		src = src[n:]
		if h&1 == 0 {
			dst = append(dst, src[:h>>1]...)
			src = src[h>>1:]
			continue
		}
		o, n := binary.Uvarint(src)
		dst = appendPaddedUvarint(dst, o, width)
		src = src[n:]
	}
	return dst
}

func appendLiteral(dst, b []byte) []byte {
	if len(b) == 0 {
		return dst
	}
	dst = binary.AppendUvarint(dst, uint64(len(b))<<1)
	return append(dst, b...)
}

// commonLen returns the length of the common prefix of a and b.
func commonLen(a, b []byte) int {
	n := 0
	for len(a) >= 8 && len(b) >= 8 {
		if x := binary.LittleEndian.Uint64(a) ^ binary.LittleEndian.Uint64(b); x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		a, b, n = a[8:], b[8:], n+8
	}
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b, n = a[1:], b[1:], n+1
	}
	return n
}

// decodeDictValue appends to dst the value whose operations are src,
// copying from dict; what names the damage when src is not a valid
// encoding (then the result is meaningless). It allocates only when dst
// must grow.
func decodeDictValue(dst, src, dict []byte) (out []byte, what string) {
	for len(src) > 0 {
		h, n := binary.Uvarint(src)
		if n <= 0 {
			return dst, "truncated operation"
		}
		src = src[n:]
		l := h >> 1
		if l == 0 || l > maxValueLen-uint64(len(dst)) {
			return dst, "operation length out of range"
		}
		if h&1 == 0 {
			if l > uint64(len(src)) {
				return dst, "literal run overruns the value"
			}
			dst = append(dst, src[:l]...)
			src = src[l:]
			continue
		}
		o, n := binary.Uvarint(src)
		if n <= 0 || o > uint64(len(dict)) || l > uint64(len(dict))-o {
			return dst, "copy outside the dictionary"
		}
		src = src[n:]
		dst = append(dst, dict[o:o+l]...)
	}
	return dst, ""
}

// dictSingleCopy returns the value that src codes when src is one copy
// operation, in place in dict, and ok false otherwise (other encodings and
// damaged ones, which decodeDictValue handles and reports). A value that
// recurs whole, the common case of db_bench's values, is read without a
// copy or a buffer.
func dictSingleCopy(src, dict []byte) (value []byte, ok bool) {
	h, n := binary.Uvarint(src)
	if n <= 0 || h&1 == 0 {
		return nil, false
	}
	o, m := binary.Uvarint(src[n:])
	l := h >> 1
	if m <= 0 || n+m != len(src) || l == 0 || o > uint64(len(dict)) || l > uint64(len(dict))-o {
		return nil, false
	}
	return dict[o : o+l : o+l], true
}
