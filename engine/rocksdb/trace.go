//go:build rocksdb

package rocksdb

/*
#include <stdlib.h>
#include <rocksdb/c.h>

char* gdb_start_trace(rocksdb_t* db, const char* path);
char* gdb_end_trace(rocksdb_t* db);
*/
import "C"

import "unsafe"

// StartTrace is engine.Tracer's: RocksDB's own DB::StartTrace into a file
// trace writer on path, as C++ db_bench starts a --trace_file trace.
func (db *DB) StartTrace(path string) error {
	p := C.CString(path)
	defer C.free(unsafe.Pointer(p))
	return cError(C.gdb_start_trace(db.db, p))
}

// EndTrace is engine.Tracer's: DB::EndTrace.
func (db *DB) EndTrace() error { return cError(C.gdb_end_trace(db.db)) }
