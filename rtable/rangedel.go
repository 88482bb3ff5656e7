package rtable

import (
	"bytes"
	"fmt"

	"github.com/godbbench/godbbench/internal/rangedel"
)

// Range tombstones. A table may hold, beside its entries, range
// tombstones: fragmented ranges [start, end) of user keys with the
// sequence numbers of the tombstones covering them, as internal/rangedel
// builds them. They live in the range deletion section of format version
// 3 (the package doc gives its bytes), which Open checks against its CRC
// and decodes, from a copy on the heap, so that readers of the tombstones
// never touch the mapping. A table's key and sequence bounds (Properties)
// cover its tombstones: the smallest start and the largest end (an
// exclusive bound, as in the block format and RocksDB's file boundaries)
// widen the key range.

// SetRangeDels gives the table the range tombstones of l, written by
// Finish. l must stay unchanged until then.
func (w *Writer) SetRangeDels(l *rangedel.List) { w.rangeDels = l }

// RangeDels returns the table's range tombstones (an empty List when it
// has none).
func (r *Reader) RangeDels() *rangedel.List { return r.rangeDels }

// decodeRangeDels decodes a range deletion section that the meta section
// says holds count tombstones.
func decodeRangeDels(b []byte, count uint64) (*rangedel.List, error) {
	if len(b) == 0 {
		return &rangedel.List{}, nil
	}
	l, err := rangedel.Decode(bytes.Clone(b))
	if err != nil {
		return nil, err
	}
	if uint64(l.Count()) != count {
		return nil, fmt.Errorf("holds %d tombstones, the meta section says %d", l.Count(), count)
	}
	return l, nil
}

// coverRangeDels widens p's key and sequence ranges to the tombstones of l.
func coverRangeDels(p *Properties, l *rangedel.List) {
	if l.Empty() {
		return
	}
	p.NumRangeDeletions = uint64(l.Count())
	lo, hi := l.Bounds()
	sLo, sHi := l.SeqRange()
	if p.NumEntries == 0 {
		p.SmallestKey, p.LargestKey = bytes.Clone(lo), bytes.Clone(hi)
		p.SmallestSeq, p.LargestSeq = sLo, sHi
		return
	}
	if bytes.Compare(lo, p.SmallestKey) < 0 {
		p.SmallestKey = bytes.Clone(lo)
	}
	if bytes.Compare(hi, p.LargestKey) > 0 {
		p.LargestKey = bytes.Clone(hi)
	}
	p.SmallestSeq = min(p.SmallestSeq, sLo)
	p.LargestSeq = max(p.LargestSeq, sHi)
}
