package engine

// Runner is implemented by engines whose every call crosses a language
// boundary (cgo), so that a loop of single operations costs a crossing per
// operation: each method performs a whole run of operations in one call.
// The operations are the ones a loop of single calls makes, in the same
// order (a run of Gets is not a batched lookup, a run of Puts not a batch).
//
// Every run method takes doneNs: nil means the run is not timed; otherwise
// the method sets doneNs[i] to the nanoseconds from the start of the call
// to the end of operation i, so that the caller can keep per-operation
// latencies (db_bench --histogram). A timed run and an untimed one perform
// the same operations.
//
// Callers use an engine's runs through Runs (runs.go), which falls back on
// loops of single calls for engines without them.
type Runner interface {
	// GetRun looks up n keys of keyLen bytes each, stored back to back in
	// keys, and sets sizes[i] to the length of key i's value, or -1 when it
	// is absent. len(keys) must be n*keyLen, len(sizes) n, and len(doneNs)
	// n when doneNs is not nil. On error the sizes of the keys from the
	// failed one on are unspecified.
	GetRun(keys []byte, keyLen int, sizes []int32, doneNs []int64) error

	// PutRun writes n entries as n separate single-entry writes in order,
	// key i being keys[i*keyLen:(i+1)*keyLen] and value i
	// values[ends[i-1]:ends[i]] (ends[-1] = 0); len(doneNs) must be n when
	// doneNs is not nil. It stops at the first error and returns it with
	// the number of entries written before it.
	PutRun(keys []byte, keyLen int, values []byte, ends []int32, wo *WriteOptions, doneNs []int64) (int, error)

	// ScanRun counts up to n entries forward on it, an iterator of this
	// engine, from the current entry (from the one after it when
	// stepFirst), summing their key and value lengths (keys only for a
	// KeysOnly iterator), and stops on the n-th: more is true when it
	// stopped there, false when it ran off the end. The Next calls are
	// those a loop of Next would make. A scan starts on a freshly
	// positioned iterator (First or SeekGE, stepFirst false); afterwards
	// only ScanRun with stepFirst, Error and Close may be called on it.
	// len(doneNs) must be at least n when doneNs is not nil.
	ScanRun(it Iterator, n int, stepFirst bool, doneNs []int64) (count int, bytes int64, more bool, err error)

	MultiGetter
}

// MultiGetter is implemented by DBs with a batched lookup of their own
// (every Runner, and DBs that wrap one, such as the driver's tracing
// wrapper). Runs.MultiGet calls it, or makes a Get per key for a DB
// without one.
type MultiGetter interface {
	// MultiGet is the engine's batched lookup (db_bench multireadrandom):
	// found[i] reports keys[i], and fn(i, value) is called for every found
	// key with a value valid only during the call. len(found) must be at
	// least len(keys).
	MultiGet(keys [][]byte, found []bool, fn func(i int, value []byte)) error
}
