package rangedel

import "bytes"

// Cursor answers Covering for a List like List.Covering, remembering the
// fragment it found last: a scan asks about keys in order, and a key in
// the same fragment, in the gap after it or in the next fragment costs two
// or three key comparisons instead of a binary search. A Cursor is used by
// one goroutine at a time; its zero value over a List (Cursor{List: l}) is
// ready.
type Cursor struct {
	List *List
	// at is the index of the fragment last found + 1 (0: none yet), so
	// the zero Cursor starts with a binary search.
	at int
}

// Covering is List.Covering(key, snapshot).
func (c *Cursor) Covering(key []byte, snapshot uint64) uint64 {
	frags := c.List.Fragments()
	if i := c.at - 1; i >= 0 && i < len(frags) && bytes.Compare(frags[i].Start, key) <= 0 {
		if bytes.Compare(key, frags[i].End) < 0 {
			return newestAtOrBelow(frags[i].Seqs, snapshot)
		}
		// Past fragment i: in the gap before i+1, or in i+1.
		if i+1 == len(frags) || bytes.Compare(key, frags[i+1].Start) < 0 {
			return 0
		}
		if bytes.Compare(key, frags[i+1].End) < 0 {
			c.at++
			return newestAtOrBelow(frags[i+1].Seqs, snapshot)
		}
	}
	// Remember the fragment at or before key even when key lies in the
	// gap after it, where the next keys of a scan are likely to fall.
	i := c.List.lastStartingAtOrBefore(key)
	if i < 0 {
		return 0
	}
	c.at = i + 1
	if bytes.Compare(key, frags[i].End) >= 0 {
		return 0
	}
	return newestAtOrBelow(frags[i].Seqs, snapshot)
}

// newestAtOrBelow returns the first of seqs (descending) at or below
// snapshot, or 0.
func newestAtOrBelow(seqs []uint64, snapshot uint64) uint64 {
	for _, s := range seqs {
		if s <= snapshot {
			return s
		}
	}
	return 0
}
