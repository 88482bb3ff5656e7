package sst

import (
	"math"
	"slices"
)

// blockTable is a Reader's list of the table's data block pairs, one entry
// per index entry, kept for the Reader's life: 409K pairs in the tables of
// a 10M-entry database at db_bench's defaults, so its width per pair is
// memory the engine holds at every moment.
//
// Pairs are contiguous (appendIndexEntries rejects an index whose pair does
// not start where the one before it ends), so a table under 4 GiB keeps a
// pair's start and its key block's length as two uint32s (8 bytes a pair
// instead of dataBlock's 16): the value block's length is what lies between
// the key block's trailer and the next pair's start, or the end of the last
// pair for the last one. A table of 4 GiB or more keeps whole dataBlocks.
type blockTable struct {
	small []pairStart
	large []dataBlock
	// n is the entry count, len(small) or len(large).
	n int
	// isLarge says entries go to large (set before the first add).
	isLarge bool
	// end is where the last pair of small ends.
	end uint64
}

// pairStart is a small table's entry: the pair's file offset and its key
// block's stored length.
type pairStart struct{ offset, keyLen uint32 }

// newBlockTable returns the empty table of a file of size bytes.
func newBlockTable(size int64) blockTable {
	return blockTable{isLarge: size > math.MaxUint32}
}

func (t *blockTable) len() int { return t.n }

// grow makes room for n more entries.
func (t *blockTable) grow(n int) {
	if t.isLarge {
		t.large = slices.Grow(t.large, n)
	} else {
		t.small = slices.Grow(t.small, n)
	}
}

// add appends d, which starts where the last entry ends.
func (t *blockTable) add(d dataBlock) {
	t.n++
	if t.isLarge {
		t.large = append(t.large, d)
		return
	}
	t.small = append(t.small, pairStart{uint32(d.offset), d.keyLen})
	t.end = d.valueOffset() + uint64(d.valueLen) + blockTrailerLen
}

// at returns entry i.
func (t *blockTable) at(i int) dataBlock {
	if t.isLarge {
		return t.large[i]
	}
	p := t.small[i]
	end := t.end
	if i+1 < len(t.small) {
		end = uint64(t.small[i+1].offset)
	}
	valueOffset := uint64(p.offset) + uint64(p.keyLen) + blockTrailerLen
	return dataBlock{offset: uint64(p.offset), keyLen: p.keyLen, valueLen: uint32(end - valueOffset - blockTrailerLen)}
}

// pairEnd returns where entry i's pair ends: its value block's trailer's
// end.
func (t *blockTable) pairEnd(i int) uint64 {
	if t.isLarge {
		d := &t.large[i]
		return d.valueOffset() + uint64(d.valueLen) + blockTrailerLen
	}
	if i+1 < len(t.small) {
		return uint64(t.small[i+1].offset)
	}
	return t.end
}

// trim drops the slack of the entries' buffer once every entry is added.
func (t *blockTable) trim() {
	if cap(t.small)-len(t.small) > len(t.small)/8 {
		t.small = slices.Clone(t.small)
	}
	if cap(t.large)-len(t.large) > len(t.large)/8 {
		t.large = slices.Clone(t.large)
	}
}
