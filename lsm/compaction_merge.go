package lsm

import (
	"github.com/godbbench/godbbench/internal/base"
)

// Merging in flushes and compactions. When compactionIter keeps a merge
// operand (the newest entry of its key in its snapshot stripe), mergeRun
// reads the rest of that stripe's entries of the key:
//
//   - down to a value or a tombstone: the operands are fully merged with the
//     value (or with nothing) into one value at the newest operand's
//     sequence; what the stripe holds below it is shadowed and dropped;
//   - to the key's last entry in a bottommost compaction (no deeper level
//     holds the key): likewise, fully merged with nothing;
//   - otherwise (the stripe ends, or older entries may lie deeper): two or
//     more operands are partially merged into one operand when the
//     operator allows it, and kept one by one when it does not.
//
// An operand a live snapshot can see stays apart from newer ones, since
// stripes never mix. When the operator fails (sortlist on a malformed
// operand) the entries are written as they were read, so no data is lost
// and reads report the failure. Without a merge operator operands pass
// through untouched.

// mergeQueue holds the entries a merge run emits, in internal-key order,
// with their values copied into one arena.
type mergeQueue struct {
	key     []byte
	arena   []byte
	entries []queuedEntry
	pos     int // the entry compactionIter stands on
}

type queuedEntry struct {
	seq        uint64
	kind       base.Kind
	start, end int // value bytes in arena
}

func (q *mergeQueue) reset() {
	q.arena, q.entries, q.pos = q.arena[:0], q.entries[:0], 0
}

// active reports whether compactionIter stands on a queued entry.
func (q *mergeQueue) active() bool { return q.pos < len(q.entries) }

func (q *mergeQueue) add(seq uint64, kind base.Kind, value []byte) {
	start := len(q.arena)
	q.arena = append(q.arena, value...)
	q.entries = append(q.entries, queuedEntry{seq: seq, kind: kind, start: start, end: len(q.arena)})
}

// replaceWith makes the queue one entry: value (which must not live in the
// arena) at the newest entry's sequence.
func (q *mergeQueue) replaceWith(kind base.Kind, value []byte) {
	seq := q.entries[0].seq
	q.reset()
	q.add(seq, kind, value)
}

func (q *mergeQueue) current() *queuedEntry { return &q.entries[q.pos] }

func (q *mergeQueue) value() []byte {
	e := q.current()
	return q.arena[e.start:e.end]
}

// mergeRun starts at the merge operand src stands on, which keep() just
// kept, reads the rest of its stripe and queues what to write instead (see
// above). It leaves src at the first entry after the run, not yet judged
// by keep (srcOK: whether src is valid there), and reports whether the
// queue has entries; false means src failed.
func (c *compactionIter) mergeRun() bool {
	q := &c.queue
	q.reset()
	q.key = append(q.key[:0], c.src.Key()...)
	stripe := c.lastStripe
	ops := &c.ops
	ops.reset()
	terminal := false
	ok := true
	for ok && !terminal {
		kind, seq := c.src.Kind(), c.src.Seq()
		value, err := c.src.Value()
		if err != nil {
			c.err = err
			return false
		}
		q.add(seq, kind, value)
		switch kind {
		case base.KindMerge:
			ops.push(value)
		case base.KindSet:
			ops.setBase(value)
			terminal = true
		case base.KindBlobIndex:
			if err := c.resolveBlobBase(q.key, value); err != nil {
				c.err = err
				return false
			}
			terminal = true
		default:
			terminal = true
		}
		ok = c.src.Next()
		if ok && (compareKeys(c.src.Key(), q.key) != 0 || c.stripe(c.src.Seq()) != stripe) {
			break
		}
		if ok && !terminal && c.coveredInStripe(q.key, c.src.Seq()) {
			// A range tombstone of the stripe ends the run like a point
			// one; keep drops the covered entries that follow.
			terminal = true
			break
		}
		if ok && !terminal {
			c.keyIn++
		}
	}
	if !ok && c.src.Error() != nil {
		return false
	}
	c.srcOK = ok
	keyEnded := !ok || compareKeys(c.src.Key(), q.key) != 0
	switch {
	case terminal || (keyEnded && c.dropTombstones):
		if merged, err := ops.fullMerge(c.merge, q.key); err == nil {
			c.keyDrop += uint64(len(q.entries) - 1)
			q.replaceWith(base.KindSet, merged)
		}
	case len(q.entries) >= 2:
		out, combined := c.merge.PartialMerge(ops.result[:0], q.key, ops.oldestFirst())
		if combined {
			ops.result = out
			c.keyDrop += uint64(len(q.entries) - 1)
			q.replaceWith(base.KindMerge, out)
		}
	}
	return true
}
