//go:build rocksdb

package rocksdb

/*
#include <rocksdb/c.h>
#include "shim.h"
*/
import "C"

import (
	"fmt"

	"github.com/godbbench/godbbench/engine"
)

// batch is an engine.Batch over one rocksdb_writebatch_t, cleared and reused
// across writes; Put, Delete and Merge copy key and value into the batch's buffer.
type batch struct {
	b *C.rocksdb_writebatch_t
	n int
	d *DB // whose column families PutCF and DeleteCF name
}

var _ engine.Batch = (*batch)(nil)

// NewBatch implements engine.DB.
func (d *DB) NewBatch() engine.Batch {
	return &batch{b: C.rocksdb_writebatch_create(), d: d}
}

func (b *batch) Put(key, value []byte) {
	C.gdb_batch_put(b.b, bytesPtr(key), C.size_t(len(key)), bytesPtr(value), C.size_t(len(value)))
	b.n++
}

func (b *batch) Delete(key []byte) {
	C.gdb_batch_delete(b.b, bytesPtr(key), C.size_t(len(key)))
	b.n++
}

// Merge adds a merge operand with the C API's rocksdb_writebatch_merge.
func (b *batch) Merge(key, value []byte) {
	C.rocksdb_writebatch_merge(b.b, bytesPtr(key), C.size_t(len(key)), bytesPtr(value), C.size_t(len(value)))
	b.n++
}

// DeleteRange adds a range tombstone over [start, end) with the C API's
// rocksdb_writebatch_delete_range.
func (b *batch) DeleteRange(start, end []byte) {
	C.rocksdb_writebatch_delete_range(b.b, bytesPtr(start), C.size_t(len(start)), bytesPtr(end), C.size_t(len(end)))
	b.n++
}

func (b *batch) Count() int { return b.n }

func (b *batch) Reset() {
	C.rocksdb_writebatch_clear(b.b)
	b.n = 0
}

func (b *batch) Close() {
	if b.b != nil {
		C.rocksdb_writebatch_destroy(b.b)
		b.b = nil
	}
}

// DeleteRange implements engine.DB with DB::DeleteRange (pointops.go).
func (d *DB) DeleteRange(start, end []byte, wo *engine.WriteOptions) error {
	return d.deleteRange(d.cf, start, end, wo)
}

// Apply implements engine.DB.
func (d *DB) Apply(eb engine.Batch, wo *engine.WriteOptions) error {
	b, ok := eb.(*batch)
	if !ok {
		return fmt.Errorf("rocksdb: batch of type %T was not made by this engine", eb)
	}
	if b.b == nil {
		return fmt.Errorf("rocksdb: batch used after Close")
	}
	if d.db == nil {
		return errClosed
	}
	return cError(C.gdb_write(d.db, d.writeOptions(wo), b.b))
}
