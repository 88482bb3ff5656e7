//go:build rocksdb

package rocksdb

// This file holds the cgo preamble: the link flags, the noescape/nocallback
// declarations of the hot-path C shims (defined in shim.h), and small functions
// turning C errors into Go errors.
//
// Why shims: each cgo call costs about 30-60 ns, and every Go pointer that a
// plain C call writes through (the char** errptr of the C API) escapes to the
// heap, which is one allocation per operation. A shim returns its results as
// a small struct by value instead, and is declared noescape/nocallback so the
// Go key and value slices handed to it stay where they are. With the shims a
// Put, Delete or Get is one cgo call and an iterator step at most one
// (move and read key and value together; long runs are batched), with no Go
// allocation at all.
//
// Measured (bench_test.go, 100k keys of 16 B with 100 B values, block cache
// holding all of it, -cpu 1, min of 5 runs on a shared 2-core VM): an
// iterator step with Key and Value took 400 ns and 0 allocs with one call for
// the move and one for the value, against 604 ns and 4 allocs (64 B) through
// grocksdb v1.7.15; MultiGet of 8 keys 0 allocs against 14 (576 B). Put and
// Get differ by 1 and 3 small allocations; their time is dominated by
// RocksDB itself (4-7 us with Debian's assertion-enabled build). With the
// batched steps of iterbatch.go the step is ~390 ns against ~440 ns for the
// two-call step (medians of 4 alternated runs, -benchtime 300000x), and the
// binding's share of a db_bench readseq fell from ~14% of the profile
// (cgocall, entersyscall/exitsyscall, glue) to ~2%; what remains is
// RocksDB's own Next (~300 ns with assertions).

/*
#cgo CXXFLAGS: -std=c++17 -O2
#cgo LDFLAGS: -lrocksdb -lstdc++ -lpthread -ldl
#include <stdlib.h>
#include <rocksdb/c.h>
#include "bridge.h"
#include "shim.h"

#cgo noescape gdb_put_one
#cgo nocallback gdb_put_one
#cgo noescape gdb_delete_one
#cgo nocallback gdb_delete_one
#cgo noescape gdb_write
#cgo nocallback gdb_write
#cgo noescape gdb_get_copy
#cgo nocallback gdb_get_copy
#cgo noescape gdb_get_sizes
#cgo nocallback gdb_get_sizes
#cgo noescape gdb_put_run
#cgo nocallback gdb_put_run
#cgo nocallback gdb_iter_sum
#cgo noescape gdb_iter_seek
#cgo nocallback gdb_iter_seek
#cgo noescape gdb_iter_seek_for_prev
#cgo nocallback gdb_iter_seek_for_prev
#cgo noescape gdb_iter_move
#cgo nocallback gdb_iter_move
#cgo noescape gdb_iter_value
#cgo nocallback gdb_iter_value
#cgo noescape gdb_iter_fill
#cgo nocallback gdb_iter_fill
#cgo noescape gdb_batch_put
#cgo nocallback gdb_batch_put
#cgo noescape gdb_batch_delete
#cgo nocallback gdb_batch_delete
#cgo noescape gdb_multi_get
#cgo nocallback gdb_multi_get
#cgo noescape gdb_multi_get_copies
#cgo nocallback gdb_multi_get_copies
#cgo noescape gdb_multi_get_release
#cgo nocallback gdb_multi_get_release

*/
import "C"

import (
	"errors"
	"unsafe"
)

// cError converts an error string returned by RocksDB (malloc'd) into a Go
// error and frees it. It returns nil for NULL.
func cError(e *C.char) error {
	if e == nil {
		return nil
	}
	err := errors.New(C.GoString(e))
	C.rocksdb_free(unsafe.Pointer(e))
	return err
}

// bytesPtr returns a C view of b's first byte, or NULL for an empty slice.
// The pointer is only valid during the cgo call it is passed to.
func bytesPtr(b []byte) *C.char {
	if len(b) == 0 {
		return nil
	}
	return (*C.char)(unsafe.Pointer(&b[0]))
}

// goBytes views C memory as a byte slice without copying.
func goBytes(p *C.char, n C.size_t) []byte {
	if n == 0 {
		return []byte{}
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))
}

// cString copies s into C memory; the caller frees it with C.free.
func cString(s string) *C.char { return C.CString(s) }

func cFree(p unsafe.Pointer) { C.free(p) }

func boolByte(b bool) C.uchar {
	if b {
		return 1
	}
	return 0
}
