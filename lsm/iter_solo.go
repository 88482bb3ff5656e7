package lsm

import (
	"bytes"

	"github.com/godbbench/godbbench/internal/base"
)

// The forward step of a DB iterator over one source.
//
// After fillrandom, flush and compact a DB is one level of non-overlapping
// tables and an empty memtable: the merging iterator's heap holds one
// child, and a forward step through the general path copies the current
// key, moves the merging iterator (which moves the level iterator, which
// moves the table's iterator, each an interface call), compares the new
// key with the copy, then asks the stream for its sequence number and
// kind through the same three layers. soloNext takes that work out when
// the heap holds one child (the others are exhausted or were empty when
// positioned), in two ways:
//
//   - The child is a level (or table) read through an rtableIter whose
//     batch holds the next entry: the step decodes that record in place
//     (iter_rtable.go) and refreshes the heap slot's cached key and
//     sequence, with no call through the layers. In a batch of keys alone
//     (a table at sequence 0, whose keys are each a new key that every
//     read sees) the step is the key's slicing and the bound check.
//     Otherwise the previous key stays in the batch until its next
//     refill, so telling an older version of the same key from a new key
//     is one comparison of two slices, and none at all when the previous
//     entry is at sequence 0.
//   - Otherwise, when the current entry is at sequence 0, it is the last
//     version of its key in its source (versions of a key are ordered by
//     descending sequence, and a compaction gives sequence 0 to at most
//     one of them: the oldest, once no snapshot can see past it), so the
//     next entry belongs to another key: the step moves the stream once,
//     without copying the key and comparing it with the next.
//
// Everything else (a new entry that is not a visible value, a bound, a
// range tombstone, a batch used up) is left to findForward, which sees the
// stream exactly as the general path would have left it.
func (it *dbIter) soloNext() (ok, done bool) {
	m := it.m
	if len(m.heap) != 1 {
		return false, false
	}
	e := &m.heap[0]
	if t := soloBatch(e.it); t != nil && t.left > 0 {
		return it.batchNext(e, t), true
	}
	if e.seq != 0 {
		return false, false
	}
	return it.findForward(m.step(true)), true
}

// zeroSet is the trailer of a value at sequence 0.
const zeroSet = base.Trailer(base.KindSet)

// soloBatch returns the rtableIter under child, when child reads an rtable
// table through one (a level's current table, or an L0 table), else nil.
func soloBatch(child internalIter) *rtableIter {
	switch c := child.(type) {
	case *levelIter:
		t, _ := c.cur.(*rtableIter)
		return t
	case *rtableIter:
		return c
	case *pinnedIter:
		t, _ := c.internalIter.(*rtableIter)
		return t
	}
	return nil
}

// batchNext steps t, whose batch holds at least one more record, to the
// first entry of the next key, keeping e (the heap's one slot) in step.
// When the batch runs out inside the current key, the general path takes
// over from the stream's position, an older version of the current key.
func (it *dbIter) batchNext(e *mergeEntry, t *rtableIter) bool {
	if t.bare > 0 && t.trailer == zeroSet && len(it.dels) == 0 {
		// Keys alone, each a new key at sequence 0 (a table of one
		// trailer holds one version of each key), visible to every read.
		t.decode()
		e.key = t.key
		if it.aboveUpper(t.key) {
			return it.findForward(true)
		}
		it.key = t.key
		return true
	}
	for t.left > 0 {
		prev, prevSeq := t.key, t.trailer.Seq()
		t.decode()
		e.key, e.seq = t.key, t.trailer.Seq()
		if prevSeq != 0 && bytes.Equal(t.key, prev) {
			continue // an older version of the current key
		}
		if e.seq <= it.seq && t.trailer.Kind() == base.KindSet && len(it.dels) == 0 && !it.aboveUpper(t.key) {
			it.key = t.key
			return true
		}
		return it.findForward(true)
	}
	it.keyBuf = append(it.keyBuf[:0], it.key...)
	return it.findForward(it.skipKey(it.keyBuf))
}
