package lsm

import (
	"runtime/debug"

	"github.com/godbbench/godbbench/internal/hugemem"
)

// releaseIdleMemory hands the memory a manual compaction has finished with
// back to the operating system at once, when Config.ReleaseMemoryAfterCompact
// asks for it.
//
// A compaction builds its output tables in memory (an rtable table holds
// its keys and values until the table is written) and merges through
// buffers sized for its inputs; once it is done, the Go heap they occupied
// is free but still resident, and the runtime's background scavenger
// returns it over minutes. The memtables' huge-page regions released by
// the flushes before it wait in their pools for the next memtable, for
// hugemem.DefaultMaxIdle. A manual compaction is the point where a
// workload has said it is done writing (db_bench's compact, before its
// reads), so both are released there: the pools' regions, and the heap
// after one collection, milliseconds against the compaction's seconds.
//
// Measured with ToplingDB's shape (cspp, rtable, batches of 1000,
// fillrandom,flush,compact,readrandom), the readrandom stage's peak VmRSS:
// at 1M keys 168-178 MiB before, 129 MiB with the heap released, 95 MiB
// with the pools' regions too; at 5M keys 300 -> 125 MiB. What is left
// beyond the mapped tables and the binary is mostly the active memtable's
// region: it came from a pool, so its pages are resident though empty.
//
// Both releases act on the whole process, not on this DB alone: the
// collection stops every goroutine of the program for a moment, and the
// pools are shared by every DB in it. So it is off unless the Config turns
// it on; db_bench's native engine does, being the only user of its process.
func (db *DB) releaseIdleMemory() {
	if !db.releaseMemory {
		return
	}
	hugemem.ReleaseKept()
	freeOSMemory()
}

// freeOSMemory is debug.FreeOSMemory; tests replace it to count the calls.
var freeOSMemory = debug.FreeOSMemory
