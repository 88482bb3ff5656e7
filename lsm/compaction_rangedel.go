package lsm

import (
	"github.com/godbbench/godbbench/internal/rangedel"
)

// Range tombstones in flushes and compactions. The tombstones of the
// inputs (the memtables' or the input tables') are fragmented into one
// List, compactionIter.dels. Then:
//
//   - a point entry is dropped when a tombstone newer than it covers it in
//     the same snapshot stripe: no snapshot can see the entry without the
//     tombstone (coveredInStripe);
//   - of a fragment's sequences only the newest of each stripe is written,
//     and in a bottommost output (no deeper level overlaps) the one of the
//     oldest stripe is dropped as well, once no snapshot predates it, since
//     what it covered was dropped with it (outputRangeDels);
//   - each output table gets the part of the fragments between its first
//     key and the next table's first key (writeTables), and a table is only
//     cut at a key no fragment reaches (rangedel.List.Reaches), so that
//     tables stay disjoint although a table's largest key is then the end
//     of its last fragment; either format stores them (sst's
//     range-deletion block, rtable's range deletion section).

// coveredInStripe reports whether the entry (key, seq) is deleted by a
// tombstone of the inputs that every snapshot seeing the entry also sees.
func (c *compactionIter) coveredInStripe(key []byte, seq uint64) bool {
	if c.dels.Empty() {
		return false
	}
	t := c.dels.OldestAbove(key, seq)
	return t != 0 && c.stripe(t) == c.stripe(seq)
}

// outputRangeDels returns the tombstones to write (see above), or nil.
func (c *compactionIter) outputRangeDels() *rangedel.List {
	if c.dels.Empty() {
		return nil
	}
	in := c.dels.Fragments()
	frags := make([]rangedel.Fragment, 0, len(in))
	for _, f := range in {
		var seqs []uint64
		var lastStripe uint64
		for i, s := range f.Seqs {
			st := c.stripe(s)
			if i > 0 && st == lastStripe {
				continue // shadowed by a newer tombstone of its stripe
			}
			lastStripe = st
			if c.dropTombstones && (len(c.snapshots) == 0 || s <= c.snapshots[0]) {
				continue
			}
			seqs = append(seqs, s)
		}
		frags = append(frags, rangedel.Fragment{Start: f.Start, End: f.End, Seqs: seqs})
	}
	out := rangedel.FromFragments(frags)
	if out.Empty() {
		return nil
	}
	return out
}

// memRangeDels returns the fragmented tombstones of mems, or nil.
func memTablesRangeDels(mems []*memTable) *rangedel.List {
	var ts []rangedel.Tombstone
	for _, m := range mems {
		if l := m.rangeDels.list(); l != nil {
			ts = l.Tombstones(ts)
		}
	}
	if len(ts) == 0 {
		return nil
	}
	return rangedel.Build(ts)
}

// tablesRangeDels returns the fragmented tombstones of the tables of sets,
// or nil.
func (db *DB) tablesRangeDels(sets ...[]*fileMeta) (*rangedel.List, error) {
	var ts []rangedel.Tombstone
	for _, files := range sets {
		for _, f := range files {
			if f.numRangeDels == 0 {
				continue
			}
			t, err := db.tableReader(f)
			if err != nil {
				return nil, err
			}
			ts = t.rangeDels.Tombstones(ts)
			db.releaseTable(t)
		}
	}
	if len(ts) == 0 {
		return nil, nil
	}
	return rangedel.Build(ts), nil
}
