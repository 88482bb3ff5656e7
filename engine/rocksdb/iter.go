//go:build rocksdb

package rocksdb

/*
#include <stdlib.h>
#include <string.h>
#include <rocksdb/c.h>
#include "shim.h"
*/
import "C"

import (
	"unsafe"

	"github.com/godbbench/godbbench/engine"
)

// iterator is an engine.Iterator over a rocksdb_iterator_t. Each move is one
// cgo call that also returns the key, so Key is free; Value is a second call,
// made only when asked for. Key and Value alias RocksDB's buffers (no copy).
type iterator struct {
	it    *C.rocksdb_iterator_t
	ro    *C.rocksdb_readoptions_t
	lower *C.char // C copy of the lower bound, owned; RocksDB keeps a pointer
	upper *C.char // C copy of the upper bound, owned
	key   []byte
	valid bool
}

// NewIter implements engine.DB.
func (d *DB) NewIter(o *engine.IterOptions) (engine.Iterator, error) {
	if d.db == nil {
		return nil, errClosed
	}
	it := &iterator{}
	it.ro = d.newReadOptions()
	if o != nil {
		// rocksdb_readoptions_set_iterate_*_bound keeps a Slice pointing at
		// the bytes, so they live in C memory until Close.
		if o.LowerBound != nil {
			it.lower = cCopy(o.LowerBound)
			C.rocksdb_readoptions_set_iterate_lower_bound(it.ro, it.lower, C.size_t(len(o.LowerBound)))
		}
		if o.UpperBound != nil {
			it.upper = cCopy(o.UpperBound)
			C.rocksdb_readoptions_set_iterate_upper_bound(it.ro, it.upper, C.size_t(len(o.UpperBound)))
		}
	}
	it.it = C.rocksdb_create_iterator(d.db, it.ro)
	return it, nil
}

// cCopy copies b into malloc'd memory (at least one byte, so an empty bound
// still gets a valid pointer).
func cCopy(b []byte) *C.char {
	p := (*C.char)(C.malloc(C.size_t(len(b) + 1)))
	if len(b) > 0 {
		C.memcpy(unsafe.Pointer(p), unsafe.Pointer(&b[0]), C.size_t(len(b)))
	}
	return p
}

func (it *iterator) set(p C.gdb_iter_pos) bool {
	it.valid = p.valid != 0
	if it.valid {
		it.key = goBytes(p.key, p.len)
	} else {
		it.key = nil
	}
	return it.valid
}

func (it *iterator) First() bool { return it.set(C.gdb_iter_move(it.it, C.GDB_FIRST)) }
func (it *iterator) Last() bool  { return it.set(C.gdb_iter_move(it.it, C.GDB_LAST)) }
func (it *iterator) Next() bool  { return it.set(C.gdb_iter_move(it.it, C.GDB_NEXT)) }
func (it *iterator) Prev() bool  { return it.set(C.gdb_iter_move(it.it, C.GDB_PREV)) }
func (it *iterator) Valid() bool { return it.valid }
func (it *iterator) Key() []byte { return it.key }

func (it *iterator) SeekGE(key []byte) bool {
	return it.set(C.gdb_iter_seek(it.it, bytesPtr(key), C.size_t(len(key))))
}

func (it *iterator) SeekLE(key []byte) bool {
	return it.set(C.gdb_iter_seek_for_prev(it.it, bytesPtr(key), C.size_t(len(key))))
}

func (it *iterator) Value() ([]byte, error) {
	if !it.valid {
		return nil, nil
	}
	v := C.gdb_iter_value(it.it)
	return goBytes(v.data, v.len), nil
}

func (it *iterator) Error() error {
	if it.it == nil {
		return nil
	}
	return cError(C.gdb_iter_error(it.it))
}

func (it *iterator) Close() error {
	if it.it == nil {
		return nil
	}
	err := it.Error()
	C.rocksdb_iter_destroy(it.it)
	C.rocksdb_readoptions_destroy(it.ro)
	if it.lower != nil {
		C.free(unsafe.Pointer(it.lower))
	}
	if it.upper != nil {
		C.free(unsafe.Pointer(it.upper))
	}
	*it = iterator{}
	return err
}
