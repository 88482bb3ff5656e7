package lsm

import (
	"errors"
	"sync"

	"github.com/godbbench/godbbench/mergeop"
)

// Merge: a merge operand (base.KindMerge) is stored like a value and applied
// when read. Get gathers a key's operands newest first through the
// memtables and tables until a value, a tombstone or the last level, then
// hands them, oldest first, with the value (if any) to the merge operator's
// FullMerge (get.go). The iterator does the same for the key it stands on
// when Value is called (iter_db.go). Flushes and compactions combine a key's
// operands within one snapshot stripe (compaction_merge.go).

// Errors of merges, in RocksDB's words: DBImpl::Merge without a merge
// operator, and a read that meets an operand without one (DBIter, Version::Get,
// CompactionIterator).
var (
	ErrNoMergeOperator      = errors.New("Not implemented: Provide a merge_operator when opening DB")
	ErrMergeOperatorMissing = errors.New("Invalid argument: merge_operator is not properly initialized.")
)

// mergeBatchPool holds the one-record batches of DB.Merge.
var mergeBatchPool = sync.Pool{New: func() any { return NewBatch() }}

// Merge adds a merge operand for key, as a batch of one Merge record. It
// fails with ErrNoMergeOperator when the DB has no merge operator.
func (db *DB) Merge(key, operand []byte, wo WriteOptions) error {
	if db.merge == nil {
		return ErrNoMergeOperator
	}
	b := mergeBatchPool.Get().(*Batch)
	b.Reset()
	b.Merge(key, operand)
	err := db.Write(b, wo)
	mergeBatchPool.Put(b)
	return err
}

// operandStack holds the merge operands of one key, copied as a read meets
// them newest first, and the value they apply to. Its buffers are kept
// between uses, so a read that merges allocates nothing in steady state.
type operandStack struct {
	bytes   []byte   // the operands, newest first, back to back
	ends    []int    // end offset in bytes of each operand
	ordered [][]byte // the operands oldest first, built by oldestFirst
	base    []byte   // the value under the operands, when hasBase
	hasBase bool
	result  []byte // FullMerge's output
}

func (s *operandStack) reset() {
	s.bytes, s.ends, s.base, s.hasBase = s.bytes[:0], s.ends[:0], s.base[:0], false
}

func (s *operandStack) push(operand []byte) {
	s.bytes = append(s.bytes, operand...)
	s.ends = append(s.ends, len(s.bytes))
}

func (s *operandStack) setBase(value []byte) {
	s.base = append(s.base[:0], value...)
	s.hasBase = true
}

// oldestFirst returns the operands oldest first, valid until the next push.
func (s *operandStack) oldestFirst() [][]byte {
	s.ordered = s.ordered[:0]
	for i := len(s.ends) - 1; i >= 0; i-- {
		start := 0
		if i > 0 {
			start = s.ends[i-1]
		}
		s.ordered = append(s.ordered, s.bytes[start:s.ends[i]])
	}
	return s.ordered
}

// fullMerge applies the operands to the base with op.
func (s *operandStack) fullMerge(op mergeop.Operator, key []byte) ([]byte, error) {
	if op == nil {
		return nil, ErrMergeOperatorMissing
	}
	out, err := op.FullMerge(s.result[:0], key, s.base, s.hasBase, s.oldestFirst())
	if err != nil {
		return nil, mergeFailed(err)
	}
	s.result = out
	return out, nil
}

// mergeFailed wraps an operator's refusal as RocksDB reports a failed merge
// (Status::Corruption with subcode kMergeOperatorFailed).
func mergeFailed(err error) error {
	return &mergeError{cause: err}
}

type mergeError struct{ cause error }

func (e *mergeError) Error() string { return "Corruption: Merge operator failed: " + e.cause.Error() }
func (e *mergeError) Unwrap() error { return e.cause }
