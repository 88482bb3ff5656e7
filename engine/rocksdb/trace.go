//go:build rocksdb

package rocksdb

/*
#include <stdint.h>
#include <stdlib.h>
#include <rocksdb/c.h>

char* gdb_start_trace(rocksdb_t* db, const char* path);
char* gdb_end_trace(rocksdb_t* db);
char* gdb_start_block_cache_trace(rocksdb_t* db, const char* path, uint64_t max_size,
                                  uint64_t sampling_frequency);
char* gdb_end_block_cache_trace(rocksdb_t* db);
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/godbbench/godbbench/options"
)

// StartTrace is engine.Tracer's: RocksDB's own DB::StartTrace into a file
// trace writer on path, as C++ db_bench starts a --trace_file trace.
func (db *DB) StartTrace(path string) error {
	p := C.CString(path)
	defer C.free(unsafe.Pointer(p))
	return cError(C.gdb_start_trace(db.db, p))
}

// EndTrace is engine.Tracer's: DB::EndTrace.
func (db *DB) EndTrace() error { return cError(C.gdb_end_trace(db.db)) }

// startBlockCacheTrace starts the block cache trace of
// --block_cache_trace_file, with db_bench's checks and words, when the
// flag names a file; Close ends it.
func (db *DB) startBlockCacheTrace(o *options.Options) error {
	if o.BlockCacheTraceFile == "" {
		return nil
	}
	if o.BlockCacheTraceSamplingFrequency <= 0 {
		return fmt.Errorf("Block cache trace sampling frequency must be higher than 0.")
	}
	if o.BlockCacheTraceMaxTraceFileSizeInBytes <= 0 {
		return fmt.Errorf("The maximum file size for block cache tracing must be higher than 0.")
	}
	p := C.CString(o.BlockCacheTraceFile)
	defer C.free(unsafe.Pointer(p))
	err := cError(C.gdb_start_block_cache_trace(db.db, p, C.uint64_t(o.BlockCacheTraceMaxTraceFileSizeInBytes),
		C.uint64_t(o.BlockCacheTraceSamplingFrequency)))
	if err != nil {
		return fmt.Errorf("Encountered an error when starting block cache tracing, %w", err)
	}
	db.blockCacheTracing = true
	return nil
}

// endBlockCacheTrace ends the block cache trace, if one is running.
func (db *DB) endBlockCacheTrace() error {
	if !db.blockCacheTracing {
		return nil
	}
	db.blockCacheTracing = false
	if err := cError(C.gdb_end_block_cache_trace(db.db)); err != nil {
		return fmt.Errorf("Encountered an error ending the block cache tracing, %w", err)
	}
	return nil
}
