//go:build rocksdb

package rocksdb

/*
#include <stdlib.h>
#include <rocksdb/c.h>
#include "bridge.h"
*/
import "C"

import (
	"unsafe"

	"github.com/godbbench/godbbench/engine"
)

// Merge implements engine.DB with DB::Merge (pointops.go).
func (d *DB) Merge(key, value []byte, wo *engine.WriteOptions) error {
	return d.merge(d.cf, key, value, wo)
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
