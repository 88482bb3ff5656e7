// C declarations of the C++ functions in bridge.cc: the few RocksDB features
// that c.h (7.8.3) does not expose. Included by the cgo preamble.
#ifndef GODBBENCH_ROCKSDB_BRIDGE_H
#define GODBBENCH_ROCKSDB_BRIDGE_H

#include <stddef.h>
#include <stdint.h>
#include <rocksdb/c.h>

#ifdef __cplusplus
extern "C" {
#endif

// gdb_version writes "MAJOR.MINOR.PATCH" of the linked library into buf.
void gdb_version(char* buf, size_t len);

// gdb_hyper_clock_cache_create builds a HyperClockCache whose estimated
// entry charge is block_size, as db_bench --cache_type=hyper_clock_cache
// builds it (flagfeatures.h has the LRU cache).
rocksdb_cache_t* gdb_hyper_clock_cache_create(size_t capacity, int num_shard_bits,
                                              size_t block_size);

// gdb_load_options_file reads an OPTIONS file with RocksDB's own loader
// (LoadOptionsFromFile), as db_bench --options_file does, and returns the DB
// options merged with the first column family's options. When cache is not
// NULL it replaces the block cache of block-based tables. On error it returns
// NULL and sets *errptr (free with rocksdb_free).
rocksdb_options_t* gdb_load_options_file(const char* path, rocksdb_cache_t* cache,
                                         char** errptr);

// gdb_table_options_adjust does what db_bench does after loading an OPTIONS
// file: install cache (when not NULL) as the block cache, and when the table
// has no filter policy install a bloom filter of bloom_bits bits per key
// (bloom_bits > 0). It returns 1 when the table factory is block-based.
int gdb_table_options_adjust(rocksdb_options_t* opts, rocksdb_cache_t* cache,
                             int bloom_bits);

// gdb_table_set_index_shortening sets BlockBasedTableOptions::index_shortening
// (0 none, 1 separators, 2 separators and successor); it returns 1 when the
// table factory is block-based.
int gdb_table_set_index_shortening(rocksdb_options_t* opts, int mode);

// gdb_table_options_from_string applies "name=value;..." to the block-based
// table options in place, with RocksDB's parser
// (GetBlockBasedTableOptionsFromString). It returns an error string or NULL.
char* gdb_table_options_from_string(rocksdb_options_t* opts, const char* s);

// gdb_set_rate_limiter installs db_bench's rate limiter:
// NewGenericRateLimiter(rate, refill_us, fairness 10, reads only or writes
// only, auto_tuned).
void gdb_set_rate_limiter(rocksdb_options_t* opts, int64_t rate, int64_t refill_us,
                          int reads_only, int auto_tuned);

// gdb_set_row_cache installs db_bench's row cache: an LRU cache of capacity
// bytes, with 2^num_shard_bits shards when num_shard_bits >= 1.
void gdb_set_row_cache(rocksdb_options_t* opts, size_t capacity, int num_shard_bits);

// gdb_compact_range is db_bench's Compact(): DB::CompactRange with
// bottommost_level_compaction = kForceOptimized and, when target_level >= 0,
// change_level to that level. A NULL bound is unbounded. It returns an error
// string or NULL (the C API's compact call drops the Status).
char* gdb_compact_range(rocksdb_t* db, const char* start, size_t start_len,
                        const char* end, size_t end_len, int target_level);

// gdb_set_stats_level sets the statistics level (StatsLevel enum value) of
// the statistics object created by rocksdb_options_enable_statistics.
void gdb_set_stats_level(rocksdb_options_t* opts, int level);

// gdb_reset_stats resets the DB's internal stats ("rocksdb.stats"), not the
// statistics object, as DB::ResetStats does; it returns an error string or
// NULL.
char* gdb_reset_stats(rocksdb_t* db);

// gdb_thread_start does what db_bench's ThreadBody does before a benchmark
// thread runs: SetPerfLevel(level) and EnablePerLevelPerfContext on the
// calling thread, whose perf context it also resets (a db_bench thread is
// new, so its context starts at zero).
void gdb_thread_start(int level);

// The one-call point operations. db_bench's threads each clear and reuse one
// WriteBatch for their writes and one PinnableSlice for their reads; these do
// the same with per-OS-thread objects, so a point write or read is one cgo
// call with no allocation (the C API's rocksdb_put builds a WriteBatch per
// call; rocksdb_get_pinned allocates a handle per call and needs a second
// call to free it).

// gdb_put_one and gdb_delete_one write one entry through the calling
// thread's write batch, cleared first. They return an error string or NULL.
char* gdb_put_one(rocksdb_t* db, const rocksdb_writeoptions_t* wo, const char* k,
                  size_t kl, const char* v, size_t vl);
char* gdb_delete_one(rocksdb_t* db, const rocksdb_writeoptions_t* wo, const char* k,
                     size_t kl);

// gdb_get_copy_result is one point lookup by gdb_get_copy.
typedef struct {
  size_t len;  // the value's length when found
  int found;
  char* big;   // when found and len > cap: a malloc'd copy of the value
  char* err;   // an error other than not-found (free with rocksdb_free)
} gdb_get_copy_result;

// gdb_get_copy looks k up in the default column family and, when found,
// copies the value into buf when it fits in cap bytes, or else into a
// malloc'd buffer returned in big (free with free). The calling thread's
// pinned slice is released before it returns.
gdb_get_copy_result gdb_get_copy(rocksdb_t* db, const rocksdb_readoptions_t* ro,
                                 const char* k, size_t kl, char* buf, size_t cap);

// gdb_put_run writes n entries as n single-entry writes through the
// calling thread's write batch (engine.RunPutter): key i is
// keys[i*key_len:(i+1)*key_len], value i values[ends[i-1]:ends[i]]. It sets
// *written to the entries written and returns an error string or NULL.
// With done_ns non-NULL it sets done_ns[i] to the time from the call's
// start to the end of write i (engine.TimedRunner) in a Go
// clock.Stopwatch's laps: time stamp counter ticks when ticking, else
// nanoseconds (lapclock.h).
char* gdb_put_run(rocksdb_t* db, const rocksdb_writeoptions_t* wo, size_t n,
                  const char* keys, size_t key_len, const char* values,
                  const int32_t* ends, size_t* written, int64_t* done_ns, int ticking);

// gdb_get_sizes looks up n keys of key_len bytes stored back to back in
// keys, one Get after another, and sets sizes[i] to the value's length or
// -1 when absent (engine.SizeGetter). It returns an error string (free with
// rocksdb_free) at the first lookup that fails other than not-found.
// done_ns, when non-NULL, is timed as in gdb_put_run.
char* gdb_get_sizes(rocksdb_t* db, const rocksdb_readoptions_t* ro, size_t n,
                    const char* keys, size_t key_len, int32_t* sizes, int64_t* done_ns,
                    int ticking);

// gdb_set_merge_operator installs the merge operator RocksDB's
// MergeOperator::CreateFromString makes of name (a nickname such as
// "uint64add" or a class name such as "UInt64AddOperator"), as db_bench
// does for --merge_operator, except that sortlist (MergeSortOperator) is
// the engine's own, which reads no operand past its end (sortlist.cc). It
// returns an error string or NULL.
char* gdb_set_merge_operator(rocksdb_options_t* opts, const char* name);

// gdb_merge_operands is the result of gdb_get_merge_operands: with found
// set, n operands, oldest first, whose lengths are lens[0..n) and whose
// bytes follow one another in data. lens and data live in one malloc'd
// block starting at lens (free with free). err is an error other than
// not-found (free with rocksdb_free).
typedef struct {
  int found;
  int n;
  size_t* lens;
  const char* data;
  char* err;
} gdb_merge_operands;

// gdb_get_merge_operands is DB::GetMergeOperands on the default column
// family, asked again with room for all of them when the first call's
// room (that of the calling thread's reused slices) was too small, as
// db_bench's readrandomoperands does.
gdb_merge_operands gdb_get_merge_operands(rocksdb_t* db, const rocksdb_readoptions_t* ro,
                                          const char* k, size_t kl);

// gdb_approximate_sizes is DB::GetApproximateSizes on the default column
// family with its defaults (files, not memtables) for n ranges whose start
// and limit keys lie back to back in starts and limits, key i being
// start_lens[i] (limit_lens[i]) bytes long. It returns an error string or
// NULL.
char* gdb_approximate_sizes(rocksdb_t* db, size_t n, const char* starts,
                            const size_t* start_lens, const char* limits,
                            const size_t* limit_lens, uint64_t* sizes);

// gdb_verify_checksum is DB::VerifyChecksum with default ReadOptions and
// gdb_verify_file_checksums DB::VerifyFileChecksums; each returns an error
// string or NULL.
char* gdb_verify_checksum(rocksdb_t* db);
char* gdb_verify_file_checksums(rocksdb_t* db);

// gdb_compact_files is db_bench's CompactFiles call in CompactLevel:
// DB::CompactFiles of the n named files into output_level, with the
// configured compression of that level (kDisableCompressionOption) and
// output files of the column family's target_file_size_base. It returns
// an error string or NULL.
char* gdb_compact_files(rocksdb_t* db, const char* const* names, size_t n,
                        int output_level);

// gdb_stats_history is DB::GetStatsHistory over all time, written as text
// into *out (malloc'ed, the caller frees it): one line per statistic,
// "<unix seconds> <value> <name>\n", oldest snapshot first. It returns an
// error string or NULL.
char* gdb_stats_history(rocksdb_t* db, char** out);

// gdb_readoptions_set_db_bench sets the ReadOptions members db_bench sets
// from flags that the C API has no setter for: adaptive_readahead,
// async_io, optimize_multiget_for_io, auto_prefix_mode, and
// rate_limiter_priority (IO_USER when io_user, else IO_TOTAL).
void gdb_readoptions_set_db_bench(rocksdb_readoptions_t* ro, unsigned char adaptive_readahead,
                                  unsigned char async_io, unsigned char optimize_multiget_for_io,
                                  unsigned char auto_prefix_mode, unsigned char io_user);

// gdb_writeoptions_set_io_user sets WriteOptions::rate_limiter_priority to
// IO_USER (db_bench --rate_limit_auto_wal_flush), else IO_TOTAL.
void gdb_writeoptions_set_io_user(rocksdb_writeoptions_t* wo, unsigned char io_user);

#ifdef __cplusplus
}
#endif

#endif
