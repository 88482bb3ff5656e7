// C declarations of the C++ functions in flagfeatures.cc: the RocksDB features
// db_bench 7.8.3 sets up from flags that c.h has no call for (cache pools,
// a compressed secondary cache and a simulated cache, cache charging, the
// plain and cuckoo tables, a compaction filter, a comparator, an info
// logger). Included by the cgo preamble.
#ifndef GODBBENCH_ROCKSDB_FLAGFEATURES_H
#define GODBBENCH_ROCKSDB_FLAGFEATURES_H

#include <stddef.h>
#include <stdint.h>
#include <rocksdb/c.h>

#ifdef __cplusplus
extern "C" {
#endif

// gdb_lru_cache_config is db_bench's LRU block cache (--cache_type=lru_cache)
// with its pools and, when use_secondary is set, a compressed secondary
// cache (--use_compressed_secondary_cache and its flags; compression is
// RocksDB's CompressionType value).
typedef struct {
  size_t capacity;
  int num_shard_bits;
  double high_pri_pool_ratio;
  double low_pri_pool_ratio;
  int use_secondary;
  size_t secondary_capacity;
  int secondary_num_shard_bits;
  double secondary_high_pri_pool_ratio;
  double secondary_low_pri_pool_ratio;
  int secondary_compression;
  uint32_t secondary_compress_format_version;
} gdb_lru_cache_config;

// gdb_lru_cache_create builds that cache. It returns NULL when RocksDB
// refuses the pool ratios (each in [0, 1], their sum at most 1), as
// NewLRUCache does; db_bench then runs without a block cache.
rocksdb_cache_t* gdb_lru_cache_create(const gdb_lru_cache_config* cfg);

// gdb_sim_cache_wrap replaces *cache by a SimCache over it simulating
// sim_capacity bytes (NewSimCache, with num_shard_bits shards when >= 1,
// else the default), as db_bench --simcache_size does.
void gdb_sim_cache_wrap(rocksdb_cache_t* cache, size_t sim_capacity, int num_shard_bits);

// gdb_sim_cache_report writes SimCache::ToString of cache into a malloc'd
// string (free with free), or returns NULL when cache is no SimCache.
char* gdb_sim_cache_report(rocksdb_cache_t* cache);

// gdb_table_charge_cache sets the block-based table's cache charging
// decisions for the roles db_bench's --charge_* flags name (1 enabled, 0
// disabled). It returns 1 when the table factory is block-based.
int gdb_table_charge_cache(rocksdb_options_t* opts, int compression_dictionary_building_buffer,
                           int filter_construction, int table_reader, int file_metadata,
                           int blob_cache);

// gdb_table_charges reads the decisions gdb_table_charge_cache set back,
// in the same order, as bits 0..4 of the result; -1 when the table factory
// is not block-based.
int gdb_table_charges(rocksdb_options_t* opts);

// gdb_set_write_buffer_manager installs a WriteBufferManager of
// buffer_size bytes (0: no limit) whose memtable memory is charged to
// cache when cache is not NULL, as db_bench does for
// --cost_write_buffer_to_cache or a non-zero --db_write_buffer_size.
void gdb_set_write_buffer_manager(rocksdb_options_t* opts, size_t buffer_size,
                                  rocksdb_cache_t* cache);

// gdb_set_plain_table installs db_bench's plain table factory: keys of
// user_key_len bytes, bloom_bits bits per key (< 0: the table's default)
// and a hash table ratio of 0.75.
void gdb_set_plain_table(rocksdb_options_t* opts, uint32_t user_key_len, int bloom_bits);

// gdb_set_cuckoo_table installs db_bench's cuckoo table factory.
void gdb_set_cuckoo_table(rocksdb_options_t* opts, double hash_ratio, int identity_as_first_hash);

// gdb_set_keep_filter installs db_bench's KeepFilter, a compaction filter
// named "KeepFilter" that keeps every entry.
void gdb_set_keep_filter(rocksdb_options_t* opts);

// gdb_set_uint64_comparator installs a comparator named
// "rocksdb.Uint64Comparator" that orders 8-byte keys as native-endian
// unsigned integers, as RocksDB's test::Uint64Comparator that db_bench
// --use_uint64_comparator installs.
void gdb_set_uint64_comparator(rocksdb_options_t* opts);

// gdb_set_stderr_info_logger makes the info log go to stderr, one line per
// message, instead of the LOG file (db_bench --use_stderr_info_logger).
void gdb_set_stderr_info_logger(rocksdb_options_t* opts);

// gdb_writeoptions_set_protection sets WriteOptions::protection_bytes_per_key:
// every write batch gets per-key checksums of that many bytes (0 or 8).
void gdb_writeoptions_set_protection(rocksdb_writeoptions_t* wo, size_t bytes_per_key);

#ifdef __cplusplus
}
#endif

#endif
