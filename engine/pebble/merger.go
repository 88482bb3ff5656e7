package pebble

import (
	"errors"
	"io"
	"sync"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/godbbench/godbbench/mergeop"
)

// This file turns a db_bench merge operator (package mergeop) into a
// pebble.Merger whose reads give RocksDB's bytes.
//
// Pebble hands a merger the operands of a key and, when the key was Set
// below them, the Set's value, all alike: the value arrives as the oldest
// operand. RocksDB's built-in operators give the same result whether a
// value is the existing one or the oldest operand (FullMerge(v, ops) ==
// FullMerge(none, [v]+ops) for every operator of mergeop), so a read
// (Finish with includesBase) is FullMerge of all of them with no existing
// value. A compaction that may not see the oldest operand (includesBase
// false) needs one operand standing for the ones it holds: the operator's
// PartialMerge, or, where the operator declines one, FullMerge of them
// with no existing value, which for these operators merges later exactly
// as the operands it replaces would.
//
// The merger's name is stored on disk and checked at every open and every
// table read. RocksDB checks no name, and db_bench reopens one database
// with any --merge_operator (tools/benchmark.sh loads without one, then
// runs mergerandom with "put"); so a database keeps the name of the first
// operator it was opened with (pickMerger), while the operator comes from
// the options. Pebble's flushes and compactions merge what they can, and
// retry a failed one without end, so a database opened without an
// operator still merges in the background with the operator its name
// records, where RocksDB copies the operands; DB.Merge is refused all the
// same, as RocksDB refuses it.

// newMerger returns the pebble.Merger for the operator op, named name.
// Without an operator, a read or compaction meeting merge operands fails
// with RocksDB's words for that case.
func newMerger(op mergeop.Operator, name string) *pebble.Merger {
	return &pebble.Merger{
		Name: name,
		Merge: func(key, value []byte) (pebble.ValueMerger, error) {
			if op == nil {
				return nil, errMergeOperatorNotInitialized
			}
			m := valueMergers.Get().(*valueMerger)
			m.op = op
			m.key = append(m.key[:0], key...)
			m.add(value, &m.newer)
			return m, nil
		},
	}
}

// errMergeOperatorNotInitialized is RocksDB's status when a read meets
// merge operands and the database has no merge operator.
var errMergeOperatorNotInitialized = errors.New("Invalid argument: merge_operator is not properly initialized.")

// pickMerger returns the merger for the database in dir opened with the
// operator op (nil: none). Its name is the one recorded by the newest
// OPTIONS file, unless that is none ("nullptr", Pebble's and RocksDB's
// word for no merger, which Pebble checks against nothing) and op is set:
// then RocksDB's name of op (MergeOperator::Name(), "UInt64AddOperator").
// Without op it merges with the operator the recorded name is of, when
// mergeop knows it.
func pickMerger(fsys vfs.FS, dir string, op mergeop.Operator) *pebble.Merger {
	recorded := ""
	if names, err := fsys.List(dir); err == nil {
		recorded, _ = newestOptionsValue(fsys, dir, names, "merger")
	}
	name := recorded
	if name == "" || name == "nullptr" {
		name = "nullptr"
		if op != nil {
			name = op.Name()
		}
	}
	if op == nil {
		op, _ = mergeop.Lookup(recorded)
	}
	return newMerger(op, name)
}

// valueMerger collects one key's operands (copied into buf, as Pebble
// keeps ownership of what it passes) and merges them in Finish. It is
// pooled: Finish returns it as the result's Closer, and Close puts it
// back, so a merged read allocates nothing once the pool is warm.
type valueMerger struct {
	op  mergeop.Operator
	key []byte
	buf []byte
	// newer and older hold the operands' [start, end) offsets in buf:
	// newer in the order received (the first operand, then MergeNewer's),
	// older in the order received by MergeOlder, newest first.
	newer, older []int
	operands     [][]byte // oldest first, views into buf, built by Finish
	out          []byte
}

var valueMergers = sync.Pool{New: func() any { return new(valueMerger) }}

func (m *valueMerger) add(v []byte, to *[]int) {
	start := len(m.buf)
	m.buf = append(m.buf, v...)
	*to = append(*to, start, len(m.buf))
}

// MergeNewer adds an operand newer than all before it.
func (m *valueMerger) MergeNewer(value []byte) error {
	m.add(value, &m.newer)
	return nil
}

// MergeOlder adds an operand older than all before it.
func (m *valueMerger) MergeOlder(value []byte) error {
	m.add(value, &m.older)
	return nil
}

// Finish merges the operands, oldest first; see the file comment for
// includesBase.
func (m *valueMerger) Finish(includesBase bool) ([]byte, io.Closer, error) {
	ops := m.operands[:0]
	for i := len(m.older) - 2; i >= 0; i -= 2 {
		ops = append(ops, m.buf[m.older[i]:m.older[i+1]])
	}
	for i := 0; i < len(m.newer); i += 2 {
		ops = append(ops, m.buf[m.newer[i]:m.newer[i+1]])
	}
	m.operands = ops
	var err error
	switch {
	case !includesBase && len(ops) == 1:
		m.out = append(m.out[:0], ops[0]...)
	case !includesBase:
		var ok bool
		if m.out, ok = m.op.PartialMerge(m.out[:0], m.key, ops); !ok {
			m.out, err = m.op.FullMerge(m.out[:0], m.key, nil, false, ops)
		}
	default:
		m.out, err = m.op.FullMerge(m.out[:0], m.key, nil, false, ops)
	}
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	return m.out, m, nil
}

// maxKeptMergeBytes bounds the buffers a pooled merger keeps.
const maxKeptMergeBytes = 64 << 10

// Close returns the merger to the pool once Pebble is done with Finish's
// result.
func (m *valueMerger) Close() error {
	clear(m.operands)
	m.op, m.newer, m.older, m.operands = nil, m.newer[:0], m.older[:0], m.operands[:0]
	m.buf = m.buf[:0]
	if cap(m.buf) > maxKeptMergeBytes || cap(m.out) > maxKeptMergeBytes {
		m.buf, m.out = nil, nil
	}
	valueMergers.Put(m)
	return nil
}
