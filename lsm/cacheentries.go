package lsm

import (
	"fmt"
	"os"

	"github.com/godbbench/godbbench/sst"
)

// BlockCacheReport is what the block cache holds, for RocksDB's
// "rocksdb.block-cache-entry-stats" property.
type BlockCacheReport struct {
	// ID names the cache as RocksDB names a cache instance:
	// "<kind>@<address>#<pid>"; empty when the DB has no block cache.
	ID       string
	Capacity int64
	Usage    int64
	Entries  sst.CacheEntries
}

// BlockCacheReport counts the blocks in the block cache (a pass over the
// cache's index, sst.Cache.Entries).
func (db *DB) BlockCacheReport() BlockCacheReport {
	if db.cache == nil {
		return BlockCacheReport{}
	}
	return BlockCacheReport{
		ID:       fmt.Sprintf("SlabClockCache@%p#%d", db.cache, os.Getpid()),
		Capacity: db.cache.Capacity(),
		Usage:    db.cache.Usage(),
		Entries:  db.cache.Entries(),
	}
}
