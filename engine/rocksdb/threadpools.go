//go:build rocksdb

package rocksdb

/*
#include <rocksdb/c.h>
*/
import "C"

import "github.com/godbbench/godbbench/options"

// setThreadPools sizes the default environment's background thread pools
// and lowers their threads' priorities, as db_bench 7.8.3 does at start
// (Env::SetBackgroundThreads) and at open (LowerThreadPoolIOPriority and
// LowerThreadPoolCPUPriority of the low and high pools). A pool size of 0,
// the flags' default, leaves the pool as it is: RocksDB grows it to
// max_background_jobs at open either way.
func (c *config) setThreadPools(o *options.Options) {
	if o.NumHighPriThreads > 0 {
		C.rocksdb_env_set_high_priority_background_threads(c.env, C.int(o.NumHighPriThreads))
	}
	if o.NumBottomPriThreads > 0 {
		C.rocksdb_env_set_bottom_priority_background_threads(c.env, C.int(o.NumBottomPriThreads))
	}
	if o.NumLowPriThreads > 0 {
		C.rocksdb_env_set_low_priority_background_threads(c.env, C.int(o.NumLowPriThreads))
	}
	if o.EnableIOPrio {
		C.rocksdb_env_lower_thread_pool_io_priority(c.env)
		C.rocksdb_env_lower_high_priority_thread_pool_io_priority(c.env)
	}
	if o.EnableCPUPrio {
		C.rocksdb_env_lower_thread_pool_cpu_priority(c.env)
		C.rocksdb_env_lower_high_priority_thread_pool_cpu_priority(c.env)
	}
}

// threadPoolSizes returns the sizes of the environment's high-, low- and
// bottom-priority thread pools.
func (c *config) threadPoolSizes() (high, low, bottom int) {
	return int(C.rocksdb_env_get_high_priority_background_threads(c.env)),
		int(C.rocksdb_env_get_low_priority_background_threads(c.env)),
		int(C.rocksdb_env_get_bottom_priority_background_threads(c.env))
}
