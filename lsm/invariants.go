package lsm

import (
	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/invariants"
)

// The LSM's self-checks, on in invariants and race builds (see
// internal/invariants); each call site is guarded by invariants.Enabled, so
// ordinary builds compile them away.

// checkUnref is the reference-count invariant: n, a count just
// decremented, never goes below zero. what and id name the object (a
// version, memtable, read state or table).
func checkUnref(what string, id uint64, n int32) {
	if n < 0 {
		invariants.Violated("lsm: %s %d released more often than referenced", what, id)
	}
}

// checkPublish is the commit invariant: the last sequence of a commit group
// is above every sequence visible before it, so visibleSeq only grows, and
// fits in 56 bits.
func checkPublish(visible, last uint64) {
	if last <= visible || last > base.MaxSeq {
		invariants.Violated("lsm: commit publishes sequence %d, not above the visible %d", last, visible)
	}
}

// checkOrder is the flush and compaction input invariant: the merged
// stream the output tables are written from is in strict internal-key
// order, user key ascending then sequence descending. It is called by keep
// before the per-key state moves on, and records seq as the previous
// entry's.
func (c *compactionIter) checkOrder(key []byte, seq uint64) {
	if c.haveLast {
		if base.Compare(key, base.MakeTrailer(seq, 0), c.lastKey, base.MakeTrailer(c.lastSeq, 0)) <= 0 {
			invariants.Violated("lsm: compaction input (%q, seq %d) does not sort after (%q, seq %d)",
				key, seq, c.lastKey, c.lastSeq)
		}
	}
	c.lastSeq = seq
}

// checkClose is the double-Close invariant of iterators and the DB: closed
// is whether the object was closed before this Close.
func checkClose(what string, closed bool) {
	if closed {
		invariants.Violated("lsm: %s closed twice", what)
	}
}
