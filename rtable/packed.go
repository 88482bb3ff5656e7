package rtable

import "encoding/binary"

// A packed column stores one unsigned integer per entry in w bytes (1..8),
// little endian, back to back, followed by packPad zero bytes so that
// entry i is one unaligned 8-byte load and a mask whatever w is.

// appendPacked appends v in w bytes.
func appendPacked(dst []byte, v uint64, w int) []byte {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	return append(dst, b[:w]...)
}

// packedAt returns entry i of a column of width w with the given mask
// (widthMask(w)). The column must hold i+1 entries and the padding.
func packedAt(col []byte, i uint64, w uint64, mask uint64) uint64 {
	return binary.LittleEndian.Uint64(col[i*w:]) & mask
}

// widthMask is the mask that keeps the low w bytes.
func widthMask(w uint64) uint64 {
	if w >= 8 {
		return ^uint64(0)
	}
	return 1<<(8*w) - 1
}

// widthFor is the number of bytes (at least 1) that holds v.
func widthFor(v uint64) int {
	w := 1
	for w < 8 && v>>(8*w) != 0 {
		w++
	}
	return w
}
