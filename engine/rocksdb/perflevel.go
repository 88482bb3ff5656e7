//go:build rocksdb

package rocksdb

/*
#include <stdlib.h>
#include <rocksdb/c.h>
#include "bridge.h"
*/
import "C"

import "unsafe"

// StartThread sets RocksDB's per-thread perf level on the calling OS thread
// and resets its perf context, as db_bench's ThreadBody does with
// SetPerfLevel(--perf_level) and EnablePerLevelPerfContext on a new thread.
// RocksDB's own default for a thread is kEnableCount (2): every operation
// then updates the thread-local perf context. db_bench's default
// --perf_level is kDisable (1), so without this call our threads did that
// counting and C++ db_bench's did not — measured on fillrandom at 1M keys,
// the TLS lookups alone were 6.5% of our profile against 2.3% of C++
// db_bench's. It implements engine.ThreadContext; the setting stays with
// the OS thread, which is why the driver locks each benchmark goroutine to
// its thread.
func (d *DB) StartThread(perfLevel int) {
	C.gdb_thread_start(C.int(perfLevel))
}

// PerfContext is the calling thread's perf context as RocksDB prints it
// (PerfContext::ToString, zero counters included), which db_bench appends
// to a thread's message when --perf_level > 1.
func (d *DB) PerfContext() string {
	ctx := C.rocksdb_perfcontext_create()
	defer C.rocksdb_perfcontext_destroy(ctx)
	s := C.rocksdb_perfcontext_report(ctx, 0)
	defer C.free(unsafe.Pointer(s))
	return C.GoString(s)
}
