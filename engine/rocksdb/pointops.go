//go:build rocksdb

package rocksdb

/*
#include <stdlib.h>
#include <rocksdb/c.h>
#include "bridge.h"

// The C API's *_cf writes and reads, returning the error instead of taking
// an errptr, so that no Go pointer escapes to the heap in a call (capi.go).

static inline char* gdb_put_cf(rocksdb_t* db, const rocksdb_writeoptions_t* wo,
                               rocksdb_column_family_handle_t* cf, const char* k, size_t kl,
                               const char* v, size_t vl) {
	char* err = NULL;
	rocksdb_put_cf(db, wo, cf, k, kl, v, vl, &err);
	return err;
}

static inline char* gdb_delete_cf(rocksdb_t* db, const rocksdb_writeoptions_t* wo,
                                  rocksdb_column_family_handle_t* cf, const char* k, size_t kl) {
	char* err = NULL;
	rocksdb_delete_cf(db, wo, cf, k, kl, &err);
	return err;
}

static inline char* gdb_merge_cf(rocksdb_t* db, const rocksdb_writeoptions_t* wo,
                                 rocksdb_column_family_handle_t* cf, const char* k, size_t kl,
                                 const char* v, size_t vl) {
	char* err = NULL;
	rocksdb_merge_cf(db, wo, cf, k, kl, v, vl, &err);
	return err;
}

static inline char* gdb_singledelete_cf(rocksdb_t* db, const rocksdb_writeoptions_t* wo,
                                        rocksdb_column_family_handle_t* cf, const char* k,
                                        size_t kl) {
	char* err = NULL;
	rocksdb_singledelete_cf(db, wo, cf, k, kl, &err);
	return err;
}

static inline char* gdb_delete_range_cf(rocksdb_t* db, const rocksdb_writeoptions_t* wo,
                                        rocksdb_column_family_handle_t* cf, const char* b,
                                        size_t bl, const char* e, size_t el) {
	char* err = NULL;
	rocksdb_delete_range_cf(db, wo, cf, b, bl, e, el, &err);
	return err;
}

// gdb_get_pinned_cf_result is one lookup by gdb_get_pinned_cf.
typedef struct {
	rocksdb_pinnableslice_t* pinned; // NULL when absent or on error
	const char* value;
	size_t len;
	char* err;
} gdb_get_pinned_cf_result;

// gdb_get_pinned_cf looks k up in cf and pins the value it finds, which
// stays valid until the caller destroys the pinned slice.
static inline gdb_get_pinned_cf_result gdb_get_pinned_cf(rocksdb_t* db,
                                                         const rocksdb_readoptions_t* ro,
                                                         rocksdb_column_family_handle_t* cf,
                                                         const char* k, size_t kl) {
	gdb_get_pinned_cf_result r = {NULL, NULL, 0, NULL};
	r.pinned = rocksdb_get_pinned_cf(db, ro, cf, k, kl, &r.err);
	if (r.pinned != NULL) {
		r.value = rocksdb_pinnableslice_value(r.pinned, &r.len);
	}
	return r;
}

#cgo noescape gdb_put_cf
#cgo nocallback gdb_put_cf
#cgo noescape gdb_delete_cf
#cgo nocallback gdb_delete_cf
#cgo noescape gdb_merge_cf
#cgo nocallback gdb_merge_cf
#cgo noescape gdb_singledelete_cf
#cgo nocallback gdb_singledelete_cf
#cgo noescape gdb_delete_range_cf
#cgo nocallback gdb_delete_range_cf
#cgo noescape gdb_get_pinned_cf
#cgo nocallback gdb_get_pinned_cf
*/
import "C"

import (
	"unsafe"

	"github.com/godbbench/godbbench/engine"
)

// The point operations on one column family, cf: the DB's engine.DB
// methods pass the default family's handle (d.cf), a family's
// (columnfamilies.go) its own. Each is one cgo call. The default
// family's Put, Delete and Get go through the bridge's per-thread batch
// and pinned slice (gdb_put_one, gdb_delete_one, gdb_get_copy), which
// save a C allocation a call; the bridge serves that family only, so
// another family's go through the C API's *_cf calls.

// put writes one entry into cf.
func (d *DB) put(cf *C.rocksdb_column_family_handle_t, key, value []byte, wo *engine.WriteOptions) error {
	if d.db == nil {
		return errClosed
	}
	k, kl, v, vl := bytesPtr(key), C.size_t(len(key)), bytesPtr(value), C.size_t(len(value))
	if cf == d.cf {
		return cError(C.gdb_put_one(d.db, d.writeOptions(wo), k, kl, v, vl))
	}
	return cError(C.gdb_put_cf(d.db, d.writeOptions(wo), cf, k, kl, v, vl))
}

// delete deletes key from cf.
func (d *DB) delete(cf *C.rocksdb_column_family_handle_t, key []byte, wo *engine.WriteOptions) error {
	if d.db == nil {
		return errClosed
	}
	if cf == d.cf {
		return cError(C.gdb_delete_one(d.db, d.writeOptions(wo), bytesPtr(key), C.size_t(len(key))))
	}
	return cError(C.gdb_delete_cf(d.db, d.writeOptions(wo), cf, bytesPtr(key), C.size_t(len(key))))
}

// merge is DB::Merge into cf: without a merge operator RocksDB refuses it
// with engine.ErrNoMergeOperator's words.
func (d *DB) merge(cf *C.rocksdb_column_family_handle_t, key, value []byte, wo *engine.WriteOptions) error {
	if d.db == nil {
		return errClosed
	}
	return cError(C.gdb_merge_cf(d.db, d.writeOptions(wo), cf,
		bytesPtr(key), C.size_t(len(key)), bytesPtr(value), C.size_t(len(value))))
}

// singleDelete is DB::SingleDelete in cf.
func (d *DB) singleDelete(cf *C.rocksdb_column_family_handle_t, key []byte, wo *engine.WriteOptions) error {
	if d.db == nil {
		return errClosed
	}
	return cError(C.gdb_singledelete_cf(d.db, d.writeOptions(wo), cf, bytesPtr(key), C.size_t(len(key))))
}

// deleteRange is DB::DeleteRange in cf, as db_bench calls it: a one-entry
// batch that RocksDB builds and writes.
func (d *DB) deleteRange(cf *C.rocksdb_column_family_handle_t, start, end []byte, wo *engine.WriteOptions) error {
	if d.db == nil {
		return errClosed
	}
	return cError(C.gdb_delete_range_cf(d.db, d.writeOptions(wo), cf,
		bytesPtr(start), C.size_t(len(start)), bytesPtr(end), C.size_t(len(end))))
}

// get looks key up in cf and calls fn with the value it finds, valid only
// during the call. In the default family RocksDB pins the value in the
// calling OS thread's reused PinnableSlice and the call copies it into a
// pooled Go buffer and releases the pin, so fn reads the buffer: the copy
// (a few ns for 100 bytes) replaces a second cgo call and the C
// allocation and free of rocksdb_get_pinned's handle (BenchmarkGet, 100k
// keys, all cached, 5 runs, -cpu 1, went from 1,547 to 1,454 ns/op at the
// minimum and from 1,618 to 1,582 at the median). A value larger than the
// buffer comes back in C memory, freed after fn, and the buffer grows (up
// to maxValueBuf) so the next one fits. In another family fn reads the
// pinned value in place, and a second call frees the pin.
func (d *DB) get(cf *C.rocksdb_column_family_handle_t, key []byte, fn func(value []byte)) (bool, error) {
	if d.db == nil {
		return false, errClosed
	}
	if cf != d.cf {
		r := C.gdb_get_pinned_cf(d.db, d.ro, cf, bytesPtr(key), C.size_t(len(key)))
		if r.err != nil || r.pinned == nil {
			return false, cError(r.err)
		}
		fn(goBytes(r.value, r.len))
		C.rocksdb_pinnableslice_destroy(r.pinned)
		return true, nil
	}
	vb := valueBufs.Get().(*valueBuf)
	r := C.gdb_get_copy(d.db, d.ro, bytesPtr(key), C.size_t(len(key)),
		(*C.char)(unsafe.Pointer(&vb.b[0])), C.size_t(len(vb.b)))
	if r.err != nil {
		valueBufs.Put(vb)
		return false, cError(r.err)
	}
	if r.found == 0 {
		valueBufs.Put(vb)
		return false, nil
	}
	if r.big != nil {
		fn(goBytes(r.big, r.len))
		C.free(unsafe.Pointer(r.big))
		if n := int(r.len); n <= maxValueBuf {
			vb.b = make([]byte, n)
		}
	} else {
		fn(vb.b[:r.len])
	}
	valueBufs.Put(vb)
	return true, nil
}
