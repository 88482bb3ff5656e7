package pebble

import "github.com/cockroachdb/pebble/v2"

// batch is an engine.Batch over a reusable *pebble.Batch. Pebble's
// non-indexed Set, Delete and Merge cannot fail (they only append to the batch's
// buffer). The one write this engine refuses, the empty key, is remembered
// in err and returned by Apply, since engine.Batch methods return no error.
type batch struct {
	b   *pebble.Batch // nil once closed
	err error         // errEmptyKey after a refused write, until Reset
	// merges: a merge operand was added since the last Reset.
	merges bool
}

func (b *batch) Put(key, value []byte) {
	if len(key) == 0 {
		b.err = errEmptyKey
		return
	}
	_ = b.b.Set(key, value, nil)
}

func (b *batch) Delete(key []byte) {
	if len(key) == 0 {
		b.err = errEmptyKey
		return
	}
	_ = b.b.Delete(key, nil)
}

// Merge adds a merge operand; Apply refuses the batch when the DB has no
// merge operator, as RocksDB's write does.
func (b *batch) Merge(key, value []byte) {
	if len(key) == 0 {
		b.err = errEmptyKey
		return
	}
	b.merges = true
	_ = b.b.Merge(key, value, nil)
}

// DeleteRange adds a range tombstone over [start, end).
func (b *batch) DeleteRange(start, end []byte) {
	_ = b.b.DeleteRange(start, end, nil)
}

func (b *batch) Count() int { return int(b.b.Count()) }

// Reset empties the batch, keeping its buffer for the next writes (Pebble
// keeps it unless the commit pipeline still references it, which happens
// only with WAL failover; TestAllocs shows 0 allocations per reused Apply).
func (b *batch) Reset() {
	b.b.Reset()
	b.err = nil
	b.merges = false
}

// Close returns the batch to Pebble's pool.
func (b *batch) Close() {
	if b.b != nil {
		_ = b.b.Close() // only fails for a batch closed twice, which the nil check prevents
		b.b = nil
	}
}
