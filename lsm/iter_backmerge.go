package lsm

import "github.com/godbbench/godbbench/mergeop"

// A reverse step meets a key's versions oldest first. When the newest
// visible one is a merge operand, the step merges the operands it met
// (down to the last value or deletion below them) as it goes, instead of
// leaving Value to seek every source forward to the key, merge, and the
// next Prev to seek every source backward again: two positionings of the
// whole merging iterator per merged key, which made reverse scans over
// merge operands (benchmark.sh's revrangewhilemerging) ten times slower
// than forward ones. Keys-only iterators and DBs without a merge operator
// keep the lazy path, so their errors still come from Value.

// pushBackwardOperand copies the current entry, a visible merge operand,
// onto it.ops; operands counts those pushed for this key since its last
// value or deletion. On the first, the value under them (in it.valBuf
// when it.haveVal) becomes the merge's base. It reports false, with
// it.err set, when the operand cannot be read.
func (it *dbIter) pushBackwardOperand(operands int) bool {
	if operands == 0 {
		it.ops.reset()
		if it.haveVal {
			it.ops.setBase(it.valBuf)
		}
	}
	v, err := it.m.Value()
	if err != nil {
		it.valid, it.err = false, err
		return false
	}
	it.ops.push(v)
	it.haveVal = false
	return true
}

// mergeBackward merges the operands pushBackwardOperand collected into
// it.valBuf and sets it.haveVal. When the operator fails, it leaves
// haveVal false: Value then merges forward and reports the failure.
func (it *dbIter) mergeBackward() {
	merged, err := it.ops.fullMergeOldestPushedFirst(it.db.merge, it.key)
	if err != nil {
		return
	}
	it.valBuf = append(it.valBuf[:0], merged...)
	it.haveVal = true
}

// fullMergeOldestPushedFirst is fullMerge for operands pushed oldest
// first, as a reverse walk meets them.
func (s *operandStack) fullMergeOldestPushedFirst(op mergeop.Operator, key []byte) ([]byte, error) {
	s.ordered = s.ordered[:0]
	start := 0
	for _, end := range s.ends {
		s.ordered = append(s.ordered, s.bytes[start:end])
		start = end
	}
	out, err := op.FullMerge(s.result[:0], key, s.base, s.hasBase, s.ordered)
	if err != nil {
		return nil, mergeFailed(err)
	}
	s.result = out
	return out, nil
}
