//go:build rocksdb

package rocksdb

// This file builds db_bench 7.8.3's block cache (Benchmark::NewCache):
// --cache_type with its pools, the compressed secondary cache and the
// simulated cache wrapped around it.

/*
#include <stdlib.h>
#include <rocksdb/c.h>
#include "bridge.h"
#include "flagfeatures.h"
*/
import "C"

import (
	"fmt"
	"io"
	"unsafe"

	"github.com/godbbench/godbbench/options"
)

// makeBlockCache sets c.cache, leaving it nil for --cache_size <= 0 and,
// as db_bench does, when RocksDB refuses the LRU pool ratios.
func (c *config) makeBlockCache(o *options.Options, warn io.Writer) error {
	if o.CacheSize > 0 {
		switch o.CacheType {
		case "", "lru_cache":
			if err := c.makeLRUCache(o); err != nil {
				return err
			}
		case "hyper_clock_cache":
			c.cache = C.gdb_hyper_clock_cache_create(C.size_t(o.CacheSize), C.int(o.CacheNumShardBits), C.size_t(o.BlockSize))
		case "fast_lru_cache":
			// Built inside RocksDB from a header Debian does not install.
			fmt.Fprintf(warn, "WARNING: engine rocksdb uses lru_cache for cache_type fast_lru_cache\n")
			if err := c.makeLRUCache(o); err != nil {
				return err
			}
		case "clock_cache":
			return fmt.Errorf("Old clock cache implementation has been removed.")
		default:
			return fmt.Errorf("Cache type not supported.")
		}
	}
	if o.SimCacheSize >= 0 {
		if c.cache == nil {
			return fmt.Errorf("Invalid argument: --simcache_size needs a block cache (--cache_size > 0) to simulate")
		}
		C.gdb_sim_cache_wrap(c.cache, C.size_t(o.SimCacheSize), C.int(o.CacheNumShardBits))
	}
	return nil
}

// makeLRUCache builds the LRU cache with its pools and, with
// --use_compressed_secondary_cache, the compressed secondary cache.
func (c *config) makeLRUCache(o *options.Options) error {
	cfg := C.gdb_lru_cache_config{
		capacity:            C.size_t(o.CacheSize),
		num_shard_bits:      C.int(o.CacheNumShardBits),
		high_pri_pool_ratio: C.double(o.CacheHighPriPoolRatio),
		low_pri_pool_ratio:  C.double(o.CacheLowPriPoolRatio),
	}
	if o.UseCompressedSecondaryCache {
		code, err := compressionCode(o.CompressedSecondaryCacheCompressionType)
		if err != nil {
			return err
		}
		cfg.use_secondary = 1
		cfg.secondary_capacity = C.size_t(o.CompressedSecondaryCacheSize)
		cfg.secondary_num_shard_bits = C.int(o.CompressedSecondaryCacheNumShardBits)
		cfg.secondary_high_pri_pool_ratio = C.double(o.CompressedSecondaryCacheHighPriPoolRatio)
		cfg.secondary_low_pri_pool_ratio = C.double(o.CompressedSecondaryCacheLowPriPoolRatio)
		cfg.secondary_compression = code
		cfg.secondary_compress_format_version = C.uint32_t(o.CompressedSecondaryCacheCompressFormatVers)
	}
	c.cache = C.gdb_lru_cache_create(&cfg)
	return nil
}

// SimCacheProperty is the engine property (engine.DB.Property) holding the
// simulated cache's report, which db_bench prints after its statistics as
// "SIMULATOR CACHE STATISTICS:" with --simcache_size.
const SimCacheProperty = "godbbench.simcache-statistics"

// simCacheReport returns the simulated cache's report, if there is one.
func (c *config) simCacheReport() (string, bool) {
	if c.cache == nil {
		return "", false
	}
	s := C.gdb_sim_cache_report(c.cache)
	if s == nil {
		return "", false
	}
	defer C.free(unsafe.Pointer(s))
	return C.GoString(s), true
}

// tableCharges returns the block-based table's cache charging decisions
// as gdb_table_charges reads them back: bit i set for the i-th role of
// gdb_table_charge_cache, -1 for another table format.
func (c *config) tableCharges() int { return int(C.gdb_table_charges(c.opts)) }
