//go:build rocksdb

package rocksdb

/*
#include <stdlib.h>
#include <rocksdb/c.h>
#include "bridge.h"

static inline char* gdb_merge(rocksdb_t* db, const rocksdb_writeoptions_t* wo,
                              const char* k, size_t kl, const char* v, size_t vl) {
	char* err = NULL;
	rocksdb_merge(db, wo, k, kl, v, vl, &err);
	return err;
}
*/
import "C"

import (
	"unsafe"

	"github.com/godbbench/godbbench/engine"
)

// Merge implements engine.DB with the C API's rocksdb_merge, which is
// DB::Merge: without a merge operator RocksDB refuses it with
// engine.ErrNoMergeOperator's words.
func (d *DB) Merge(key, value []byte, wo *engine.WriteOptions) error {
	if d.db == nil {
		return errClosed
	}
	return cError(C.gdb_merge(d.db, d.writeOptions(wo),
		bytesPtr(key), C.size_t(len(key)), bytesPtr(value), C.size_t(len(value))))
}

// GetMergeOperands implements engine.DB with DB::GetMergeOperands (through
// the bridge: the C API has none), the operands copied out of RocksDB's
// pinned slices into one C block that fn reads and that is freed after.
func (d *DB) GetMergeOperands(key []byte, fn func(operand []byte)) (bool, error) {
	if d.db == nil {
		return false, errClosed
	}
	r := C.gdb_get_merge_operands(d.db, d.ro, bytesPtr(key), C.size_t(len(key)))
	if r.err != nil {
		return false, cError(r.err)
	}
	if r.found == 0 {
		return false, nil
	}
	defer C.free(unsafe.Pointer(r.lens))
	n := int(r.n)
	lens := unsafe.Slice((*C.size_t)(unsafe.Pointer(r.lens)), n)
	at := r.data
	for _, l := range lens {
		fn(goBytes(at, l))
		at = (*C.char)(unsafe.Add(unsafe.Pointer(at), uintptr(l)))
	}
	return true, nil
}
