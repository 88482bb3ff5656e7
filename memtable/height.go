package memtable

import (
	"math/bits"
	"math/rand/v2"
)

// RandomHeight draws a skiplist node height in [1, maxHeight] with
// P(h > k) = 4^-k (RocksDB's branching factor 4) from one 32-bit random
// number: each pair of trailing zero bits is one more level. It costs one
// rand.Uint32 and a count-trailing-zeros, about 3 ns.
func RandomHeight(maxHeight int) int {
	h := 1 + bits.TrailingZeros32(rand.Uint32()|1<<31)/2
	if h > maxHeight {
		h = maxHeight
	}
	return h
}
