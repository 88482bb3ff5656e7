package lsm

import (
	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/invariants"
	"github.com/godbbench/godbbench/internal/rangedel"
	"github.com/godbbench/godbbench/mergeop"
)

// compactionIter filters a merged internal stream for flush and compaction
// output. Snapshots split the sequence space into stripes: a stripe is the
// set of sequences that the same snapshots can see (stripe of s = the
// smallest live snapshot >= s, or "latest"). Within a user key only the
// newest entry of each stripe is visible to anyone, so older entries of the
// same stripe are dropped. A tombstone visible to every snapshot is dropped
// too, together with what it shadows, when dropTombstones says no deeper
// level holds the key (bottommost output). A kept merge operand starts a
// merge run that combines the operands of its stripe (compaction_merge.go).
// Without a merge operator (a DB written with one, opened without) the
// operands are kept as they are, and so is every entry under them in their
// stripe down to the first that is not an operand: those are what a reader
// with the operator merges them onto. Dropped as shadowed, the base and
// older operands were lost, and a later open with the operator read a
// wrong value. (RocksDB fails the flush or compaction instead, which stops
// writes.)
//
// In a bottommost output below L0 (zeroSeqs), a value that every
// snapshot sees (no snapshot predates it) is written at sequence 0, as
// RocksDB's compaction does: it is the key's only version in the oldest
// stripe, every older one having been dropped, so no reader can tell its
// sequence from 0. Repeated zero trailers compress well in block tables;
// an rtable table whose entries are all at sequence 0 has one trailer for
// all and no trailers section, and a key-only scan of it copies the keys
// alone (rtable.AppendKeys, lsm/iter_solo.go). The table still records
// the sequences its entries had (tableWriter.CoverSeq), which an open
// needs to tell an obsolete table from a lost one. Merge operands,
// tombstones and blob indexes keep their sequences, and so does L0, whose
// tables are ordered by sequence number.
type compactionIter struct {
	src            *mergingIter
	snapshots      []uint64 // ascending
	dropTombstones bool
	// zeroSeqs writes the values every snapshot sees at sequence 0.
	zeroSeqs bool
	merge    mergeop.Operator // nil: operands pass through, with what they merge onto
	// dels are the inputs' range tombstones (compaction_rangedel.go).
	dels  *rangedel.List
	blobs *blobSink // nil: no blob files in or out

	queue mergeQueue   // a merge run's output, when active
	ops   operandStack // a merge run's operands
	srcOK bool         // whether src is valid after the merge run
	err   error        // a merge run's read error

	lastKey    []byte
	lastSeq    uint64 // the previous entry's sequence (invariants builds only)
	haveLast   bool
	lastStripe uint64
	// operandAbove: the previous entry, of the same key and stripe, is an
	// operand no operator merges (merge nil), so this one is kept.
	operandAbove bool
	keyIn        uint64
	keyDrop      uint64
}

func (c *compactionIter) stripe(seq uint64) uint64 {
	lo, hi := 0, len(c.snapshots)
	for lo < hi {
		m := (lo + hi) / 2
		if c.snapshots[m] < seq {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(c.snapshots) {
		return base.MaxSeq
	}
	return c.snapshots[lo]
}

// keep decides on the entry at src and updates the per-key state.
func (c *compactionIter) keep() bool {
	c.keyIn++
	key, seq := c.src.Key(), c.src.Seq()
	if invariants.Enabled {
		c.checkOrder(key, seq)
	}
	if c.blobs != nil && c.src.Kind() == base.KindBlobIndex {
		v, err := c.src.Value()
		c.blobs.noteInput(key, v, err)
	}
	s := c.stripe(seq)
	if c.haveLast && compareKeys(key, c.lastKey) == 0 {
		if s == c.lastStripe && !c.operandAbove {
			c.keyDrop++
			return false // shadowed by a newer entry in the same stripe
		}
	} else {
		c.lastKey = append(c.lastKey[:0], key...)
		c.haveLast = true
	}
	c.lastStripe = s
	c.operandAbove = c.merge == nil && c.src.Kind() == base.KindMerge
	if c.coveredInStripe(key, seq) {
		c.keyDrop++
		return false
	}
	if c.dropTombstones && c.src.Kind() == base.KindDelete &&
		(len(c.snapshots) == 0 || seq <= c.snapshots[0]) {
		c.keyDrop++
		return false
	}
	return true
}

func (c *compactionIter) advance(ok bool) bool {
	for ; ok; ok = c.src.Next() {
		if !c.keep() {
			continue
		}
		if c.merge != nil && c.src.Kind() == base.KindMerge {
			return c.mergeRun()
		}
		return true
	}
	return false
}

func (c *compactionIter) First() bool {
	c.queue.reset()
	return c.advance(c.src.First())
}

func (c *compactionIter) Next() bool {
	if c.queue.active() {
		if c.queue.pos++; c.queue.active() {
			return true
		}
		c.queue.reset()
		return c.advance(c.srcOK)
	}
	return c.advance(c.src.Next())
}

func (c *compactionIter) Key() []byte {
	if c.queue.active() {
		return c.queue.key
	}
	return c.src.Key()
}

func (c *compactionIter) Seq() uint64 {
	if c.queue.active() {
		return c.queue.current().seq
	}
	seq := c.src.Seq()
	if c.zeroSeqs && (len(c.snapshots) == 0 || seq <= c.snapshots[0]) && c.src.Kind() == base.KindSet {
		return 0
	}
	return seq
}

// sourceSeq is the current entry's sequence as its source has it, before
// zeroSeqs: what the output table's recorded sequence range must cover.
func (c *compactionIter) sourceSeq() uint64 {
	if c.queue.active() {
		return c.queue.current().seq
	}
	return c.src.Seq()
}

func (c *compactionIter) Kind() base.Kind {
	if c.queue.active() {
		return c.queue.current().kind
	}
	return c.src.Kind()
}

func (c *compactionIter) Value() ([]byte, error) {
	if c.queue.active() {
		return c.queue.value(), nil
	}
	return c.src.Value()
}

func (c *compactionIter) Error() error {
	if c.err != nil {
		return c.err
	}
	return c.src.Error()
}
