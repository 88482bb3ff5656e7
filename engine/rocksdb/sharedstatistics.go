//go:build rocksdb

package rocksdb

/*
#include "sharedstatistics.h"
*/
import "C"

import (
	"sync"

	"github.com/godbbench/godbbench/engine"
)

var _ engine.StatisticsSharer = Opener{}

// sharedStatistics is the one C++ Statistics object of an Opener made by
// SharingStatistics, made at its first open with statistics.
type sharedStatistics struct {
	mu sync.Mutex
	s  *C.gdb_shared_statistics_t
}

// SharingStatistics implements engine.StatisticsSharer: the options of
// every DB the returned Opener opens with statistics hold one statistics
// object, as db_bench's hold its dbstats.
func (Opener) SharingStatistics() engine.Opener {
	return Opener{shared: new(sharedStatistics)}
}

// enable makes opts count in the shared object, made at level on the
// first call.
func (sh *sharedStatistics) enable(opts *C.rocksdb_options_t, level int) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.s == nil {
		sh.s = C.gdb_shared_statistics_create(C.int(level))
	}
	C.gdb_shared_statistics_set(opts, sh.s)
}
