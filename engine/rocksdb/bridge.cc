//go:build rocksdb

// C++ functions for features that RocksDB 7.8.3's C API lacks, and the
// one-call point operations. RocksDB's c.cc defines each C handle type as a
// struct whose first (for most, only) member is the C++ object (or a
// pointer/shared_ptr to it); the definitions below repeat those first
// members exactly, which is how these functions reach the C++ objects behind
// the handles the C API gives out. They only ever receive pointers the C API
// made, so the members they leave out do not matter.

#include "bridge.h"
#include "lapclock.h"
#include "sortlist.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/options.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>
#include <rocksdb/rate_limiter.h>
#include <rocksdb/statistics.h>
#include <rocksdb/stats_history.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/options_util.h>
#include <rocksdb/version.h>
#include <rocksdb/write_batch.h>

struct rocksdb_t {
  ROCKSDB_NAMESPACE::DB* rep;
};
struct rocksdb_options_t {
  ROCKSDB_NAMESPACE::Options rep;
};
struct rocksdb_cache_t {
  std::shared_ptr<ROCKSDB_NAMESPACE::Cache> rep;
};
// c.cc's rocksdb_readoptions_t has more members after rep (the Slices its
// bound setters point rep at); only rep is reached here, through pointers
// the C API made, so declaring the first member alone is enough.
struct rocksdb_readoptions_t {
  ROCKSDB_NAMESPACE::ReadOptions rep;
};
struct rocksdb_writeoptions_t {
  ROCKSDB_NAMESPACE::WriteOptions rep;
};

static char* copy_error(const std::string& s) {
  char* out = static_cast<char*>(malloc(s.size() + 1));
  memcpy(out, s.data(), s.size());
  out[s.size()] = '\0';
  return out;
}

extern "C" {

void gdb_version(char* buf, size_t len) {
  std::string v = ROCKSDB_NAMESPACE::GetRocksVersionAsString(true);
  if (len == 0) return;
  size_t n = v.size() < len - 1 ? v.size() : len - 1;
  memcpy(buf, v.data(), n);
  buf[n] = '\0';
}

rocksdb_cache_t* gdb_hyper_clock_cache_create(size_t capacity, int num_shard_bits,
                                              size_t block_size) {
  return new rocksdb_cache_t{ROCKSDB_NAMESPACE::HyperClockCacheOptions(
                                 capacity, block_size, num_shard_bits)
                                 .MakeSharedCache()};
}

rocksdb_options_t* gdb_load_options_file(const char* path, rocksdb_cache_t* cache,
                                         char** errptr) {
  ROCKSDB_NAMESPACE::ConfigOptions config;
  config.env = ROCKSDB_NAMESPACE::Env::Default();
  config.ignore_unknown_options = false;
  config.input_strings_escaped = true;
  ROCKSDB_NAMESPACE::DBOptions db_opts;
  std::vector<ROCKSDB_NAMESPACE::ColumnFamilyDescriptor> cfs;
  std::shared_ptr<ROCKSDB_NAMESPACE::Cache> c;
  if (cache != nullptr) c = cache->rep;
  ROCKSDB_NAMESPACE::Status s =
      ROCKSDB_NAMESPACE::LoadOptionsFromFile(config, path, &db_opts, &cfs, &c);
  if (!s.ok()) {
    *errptr = copy_error(s.ToString());
    return nullptr;
  }
  if (cfs.empty()) {
    *errptr = copy_error(std::string("options file has no column family: ") + path);
    return nullptr;
  }
  return new rocksdb_options_t{ROCKSDB_NAMESPACE::Options(db_opts, cfs[0].options)};
}

int gdb_table_options_adjust(rocksdb_options_t* opts, rocksdb_cache_t* cache,
                             int bloom_bits) {
  auto* t = opts->rep.table_factory
                ->GetOptions<ROCKSDB_NAMESPACE::BlockBasedTableOptions>();
  if (t == nullptr) return 0;
  if (cache != nullptr) {
    t->block_cache = cache->rep;
    t->no_block_cache = false;
  }
  if (t->filter_policy == nullptr && bloom_bits > 0) {
    t->filter_policy.reset(ROCKSDB_NAMESPACE::NewBloomFilterPolicy(bloom_bits, false));
  }
  return 1;
}

int gdb_table_set_index_shortening(rocksdb_options_t* opts, int mode) {
  auto* t = opts->rep.table_factory
                ->GetOptions<ROCKSDB_NAMESPACE::BlockBasedTableOptions>();
  if (t == nullptr) return 0;
  t->index_shortening =
      static_cast<ROCKSDB_NAMESPACE::BlockBasedTableOptions::IndexShorteningMode>(mode);
  return 1;
}

char* gdb_table_options_from_string(rocksdb_options_t* opts, const char* s) {
  auto* t = opts->rep.table_factory
                ->GetOptions<ROCKSDB_NAMESPACE::BlockBasedTableOptions>();
  if (t == nullptr) return copy_error("the table factory is not block-based");
  ROCKSDB_NAMESPACE::ConfigOptions cfg;
  cfg.ignore_unknown_options = false;
  cfg.input_strings_escaped = false;
  ROCKSDB_NAMESPACE::BlockBasedTableOptions next;
  ROCKSDB_NAMESPACE::Status st =
      ROCKSDB_NAMESPACE::GetBlockBasedTableOptionsFromString(cfg, *t, s, &next);
  if (!st.ok()) return copy_error(st.ToString());
  *t = next;
  return nullptr;
}

void gdb_set_rate_limiter(rocksdb_options_t* opts, int64_t rate, int64_t refill_us,
                          int reads_only, int auto_tuned) {
  opts->rep.rate_limiter.reset(ROCKSDB_NAMESPACE::NewGenericRateLimiter(
      rate, refill_us, 10,
      reads_only ? ROCKSDB_NAMESPACE::RateLimiter::Mode::kReadsOnly
                 : ROCKSDB_NAMESPACE::RateLimiter::Mode::kWritesOnly,
      auto_tuned != 0));
}

void gdb_set_row_cache(rocksdb_options_t* opts, size_t capacity, int num_shard_bits) {
  if (num_shard_bits >= 1) {
    opts->rep.row_cache = ROCKSDB_NAMESPACE::NewLRUCache(capacity, num_shard_bits);
  } else {
    opts->rep.row_cache = ROCKSDB_NAMESPACE::NewLRUCache(capacity);
  }
}

char* gdb_compact_range(rocksdb_t* db, const char* start, size_t start_len,
                        const char* end, size_t end_len, int target_level) {
  ROCKSDB_NAMESPACE::CompactRangeOptions cro;
  cro.bottommost_level_compaction =
      ROCKSDB_NAMESPACE::BottommostLevelCompaction::kForceOptimized;
  if (target_level >= 0) {
    cro.change_level = true;
    cro.target_level = target_level;
  }
  ROCKSDB_NAMESPACE::Slice b(start, start_len), e(end, end_len);
  ROCKSDB_NAMESPACE::Status s = db->rep->CompactRange(
      cro, start != nullptr ? &b : nullptr, end != nullptr ? &e : nullptr);
  if (!s.ok()) return copy_error(s.ToString());
  return nullptr;
}

void gdb_set_stats_level(rocksdb_options_t* opts, int level) {
  if (opts->rep.statistics) {
    opts->rep.statistics->set_stats_level(
        static_cast<ROCKSDB_NAMESPACE::StatsLevel>(level));
  }
}

char* gdb_reset_stats(rocksdb_t* db) {
  ROCKSDB_NAMESPACE::Status s = db->rep->ResetStats();
  if (!s.ok()) return copy_error(s.ToString());
  return nullptr;
}

void gdb_thread_start(int level) {
  ROCKSDB_NAMESPACE::SetPerfLevel(static_cast<ROCKSDB_NAMESPACE::PerfLevel>(level));
  ROCKSDB_NAMESPACE::PerfContext* pc = ROCKSDB_NAMESPACE::get_perf_context();
  pc->Reset();
  pc->EnablePerLevelPerfContext();
}

// Per-OS-thread scratch for the one-call point operations below. Each is
// used and left empty (or cleared) within one call, so a goroutine that
// moves to another OS thread between calls, or shares one with another
// goroutine, never sees another call's state: only capacity carries over.
static thread_local ROCKSDB_NAMESPACE::PinnableSlice tl_pinned;
static thread_local ROCKSDB_NAMESPACE::WriteBatch tl_batch;

// maxKeptBatchBytes bounds the buffer a thread's write batch keeps between
// calls, so one huge value does not pin a huge buffer to the thread.
static const size_t maxKeptBatchBytes = 64 << 10;

static char* write_one(rocksdb_t* db, const rocksdb_writeoptions_t* wo) {
  ROCKSDB_NAMESPACE::Status s = db->rep->Write(wo->rep, &tl_batch);
  if (tl_batch.GetDataSize() > maxKeptBatchBytes) {
    tl_batch = ROCKSDB_NAMESPACE::WriteBatch();
  }
  if (!s.ok()) return copy_error(s.ToString());
  return nullptr;
}

char* gdb_put_one(rocksdb_t* db, const rocksdb_writeoptions_t* wo, const char* k,
                  size_t kl, const char* v, size_t vl) {
  tl_batch.Clear();
  ROCKSDB_NAMESPACE::Status s =
      tl_batch.Put(ROCKSDB_NAMESPACE::Slice(k, kl), ROCKSDB_NAMESPACE::Slice(v, vl));
  if (!s.ok()) return copy_error(s.ToString());
  return write_one(db, wo);
}

char* gdb_delete_one(rocksdb_t* db, const rocksdb_writeoptions_t* wo, const char* k,
                     size_t kl) {
  tl_batch.Clear();
  ROCKSDB_NAMESPACE::Status s = tl_batch.Delete(ROCKSDB_NAMESPACE::Slice(k, kl));
  if (!s.ok()) return copy_error(s.ToString());
  return write_one(db, wo);
}

gdb_get_copy_result gdb_get_copy(rocksdb_t* db, const rocksdb_readoptions_t* ro,
                                 const char* k, size_t kl, char* buf, size_t cap) {
  gdb_get_copy_result r = {0, 0, nullptr, nullptr};
  tl_pinned.Reset();
  ROCKSDB_NAMESPACE::Status s = db->rep->Get(ro->rep, db->rep->DefaultColumnFamily(),
                                             ROCKSDB_NAMESPACE::Slice(k, kl), &tl_pinned);
  if (!s.ok()) {
    if (!s.IsNotFound()) r.err = copy_error(s.ToString());
    tl_pinned.Reset();
    return r;
  }
  r.found = 1;
  r.len = tl_pinned.size();
  if (r.len <= cap) {
    if (r.len > 0) memcpy(buf, tl_pinned.data(), r.len);
  } else {
    r.big = static_cast<char*>(malloc(r.len));
    memcpy(r.big, tl_pinned.data(), r.len);
  }
  // Release the pinned block (or memtable copy) now: nothing refers to it
  // after the copy, and a pin held past the call would count against the
  // block cache until the thread's next Get.
  tl_pinned.Reset();
  return r;
}

// run_clock times the operations of a run for engine.TimedRunner: the time
// since the run began at the end of each operation, as db_bench reads its
// clock per operation when it keeps histograms, in the laps of the Go
// caller's clock.Stopwatch (lapclock.h: the time stamp counter when
// ticking, as the Go engines' runs read it, else CLOCK_MONOTONIC).
struct run_clock {
  int64_t* done_ns;
  int ticking;
  int64_t start;
  run_clock(int64_t* d, int t) : done_ns(d), ticking(t), start(d != nullptr ? gdb_lap_now(t) : 0) {}
  void done(size_t i) {
    if (done_ns != nullptr) done_ns[i] = gdb_lap_now(ticking) - start;
  }
};

char* gdb_put_run(rocksdb_t* db, const rocksdb_writeoptions_t* wo, size_t n,
                  const char* keys, size_t key_len, const char* values,
                  const int32_t* ends, size_t* written, int64_t* done_ns, int ticking) {
  run_clock clock(done_ns, ticking);
  *written = 0;
  size_t start = 0;
  for (size_t i = 0; i < n; i++) {
    size_t end = static_cast<size_t>(ends[i]);
    tl_batch.Clear();
    ROCKSDB_NAMESPACE::Status s =
        tl_batch.Put(ROCKSDB_NAMESPACE::Slice(keys + i * key_len, key_len),
                     ROCKSDB_NAMESPACE::Slice(values + start, end - start));
    if (!s.ok()) return copy_error(s.ToString());
    if (char* err = write_one(db, wo)) return err;
    clock.done(i);
    *written = i + 1;
    start = end;
  }
  return nullptr;
}

char* gdb_get_sizes(rocksdb_t* db, const rocksdb_readoptions_t* ro, size_t n,
                    const char* keys, size_t key_len, int32_t* sizes, int64_t* done_ns,
                    int ticking) {
  run_clock clock(done_ns, ticking);
  auto* cf = db->rep->DefaultColumnFamily();
  for (size_t i = 0; i < n; i++) {
    tl_pinned.Reset();
    ROCKSDB_NAMESPACE::Status s = db->rep->Get(
        ro->rep, cf, ROCKSDB_NAMESPACE::Slice(keys + i * key_len, key_len), &tl_pinned);
    if (s.ok()) {
      sizes[i] = static_cast<int32_t>(tl_pinned.size());
    } else if (s.IsNotFound()) {
      sizes[i] = -1;
    } else {
      tl_pinned.Reset();
      return copy_error(s.ToString());
    }
    clock.done(i);
  }
  tl_pinned.Reset();
  return nullptr;
}

char* gdb_set_merge_operator(rocksdb_options_t* opts, const char* name) {
  if (gdb_is_sortlist_name(name)) {
    opts->rep.merge_operator = gdb_new_sortlist();
    return nullptr;
  }
  ROCKSDB_NAMESPACE::ConfigOptions cfg;
  ROCKSDB_NAMESPACE::Status s = ROCKSDB_NAMESPACE::MergeOperator::CreateFromString(
      cfg, name, &opts->rep.merge_operator);
  if (!s.ok()) return copy_error(s.ToString());
  return nullptr;
}

// tl_operands are the calling thread's slices for GetMergeOperands, reset
// before each call returns; they grow to the most operands a key has had.
static thread_local std::vector<ROCKSDB_NAMESPACE::PinnableSlice> tl_operands(8);

gdb_merge_operands gdb_get_merge_operands(rocksdb_t* db, const rocksdb_readoptions_t* ro,
                                          const char* k, size_t kl) {
  gdb_merge_operands r = {0, 0, nullptr, nullptr, nullptr};
  ROCKSDB_NAMESPACE::GetMergeOperandsOptions gmo;
  gmo.expected_max_number_of_operands = static_cast<int>(tl_operands.size());
  int n = 0;
  ROCKSDB_NAMESPACE::Slice key(k, kl);
  auto* cf = db->rep->DefaultColumnFamily();
  ROCKSDB_NAMESPACE::Status s =
      db->rep->GetMergeOperands(ro->rep, cf, key, tl_operands.data(), &gmo, &n);
  if (s.IsIncomplete()) {
    tl_operands.resize(static_cast<size_t>(n));
    gmo.expected_max_number_of_operands = n;
    s = db->rep->GetMergeOperands(ro->rep, cf, key, tl_operands.data(), &gmo, &n);
  }
  if (s.ok()) {
    size_t total = 0;
    for (int i = 0; i < n; i++) total += tl_operands[i].size();
    size_t head = sizeof(size_t) * static_cast<size_t>(n);
    char* block = static_cast<char*>(malloc(head + total + 1));
    r.lens = reinterpret_cast<size_t*>(block);
    char* data = block + head;
    r.data = data;
    for (int i = 0; i < n; i++) {
      r.lens[i] = tl_operands[i].size();
      if (r.lens[i] > 0) memcpy(data, tl_operands[i].data(), r.lens[i]);
      data += r.lens[i];
    }
    r.found = 1;
    r.n = n;
  } else if (!s.IsNotFound()) {
    r.err = copy_error(s.ToString());
  }
  for (auto& p : tl_operands) p.Reset();
  return r;
}

void gdb_readoptions_set_db_bench(rocksdb_readoptions_t* ro, unsigned char adaptive_readahead,
                                  unsigned char async_io, unsigned char optimize_multiget_for_io,
                                  unsigned char auto_prefix_mode, unsigned char io_user) {
  ro->rep.adaptive_readahead = adaptive_readahead;
  ro->rep.async_io = async_io;
  ro->rep.optimize_multiget_for_io = optimize_multiget_for_io;
  ro->rep.auto_prefix_mode = auto_prefix_mode;
  ro->rep.rate_limiter_priority =
      io_user ? ROCKSDB_NAMESPACE::Env::IO_USER : ROCKSDB_NAMESPACE::Env::IO_TOTAL;
}

void gdb_writeoptions_set_io_user(rocksdb_writeoptions_t* wo, unsigned char io_user) {
  wo->rep.rate_limiter_priority =
      io_user ? ROCKSDB_NAMESPACE::Env::IO_USER : ROCKSDB_NAMESPACE::Env::IO_TOTAL;
}

}  // extern "C"

char* gdb_approximate_sizes(rocksdb_t* db, size_t n, const char* starts,
                            const size_t* start_lens, const char* limits,
                            const size_t* limit_lens, uint64_t* sizes) {
  std::vector<ROCKSDB_NAMESPACE::Range> ranges;
  ranges.reserve(n);
  for (size_t i = 0; i < n; i++) {
    ranges.emplace_back(ROCKSDB_NAMESPACE::Slice(starts, start_lens[i]),
                        ROCKSDB_NAMESPACE::Slice(limits, limit_lens[i]));
    starts += start_lens[i];
    limits += limit_lens[i];
  }
  ROCKSDB_NAMESPACE::Status s = db->rep->GetApproximateSizes(
      ranges.data(), static_cast<int>(n), sizes);
  if (!s.ok()) return copy_error(s.ToString());
  return nullptr;
}

char* gdb_verify_checksum(rocksdb_t* db) {
  ROCKSDB_NAMESPACE::Status s =
      db->rep->VerifyChecksum(ROCKSDB_NAMESPACE::ReadOptions());
  if (!s.ok()) return copy_error(s.ToString());
  return nullptr;
}

char* gdb_verify_file_checksums(rocksdb_t* db) {
  ROCKSDB_NAMESPACE::Status s =
      db->rep->VerifyFileChecksums(ROCKSDB_NAMESPACE::ReadOptions());
  if (!s.ok()) return copy_error(s.ToString());
  return nullptr;
}

char* gdb_compact_files(rocksdb_t* db, const char* const* names, size_t n,
                        int output_level) {
  std::vector<std::string> files(names, names + n);
  ROCKSDB_NAMESPACE::CompactionOptions co;
  co.compression = ROCKSDB_NAMESPACE::kDisableCompressionOption;
  ROCKSDB_NAMESPACE::ColumnFamilyDescriptor desc;
  db->rep->DefaultColumnFamily()->GetDescriptor(&desc);
  co.output_file_size_limit = desc.options.target_file_size_base;
  ROCKSDB_NAMESPACE::Status s = db->rep->CompactFiles(co, files, output_level);
  if (!s.ok()) return copy_error(s.ToString());
  return nullptr;
}

char* gdb_stats_history(rocksdb_t* db, char** out) {
  *out = nullptr;
  std::unique_ptr<ROCKSDB_NAMESPACE::StatsHistoryIterator> it;
  ROCKSDB_NAMESPACE::Status s = db->rep->GetStatsHistory(
      0, std::numeric_limits<uint64_t>::max(), &it);
  if (!s.ok()) return copy_error(s.ToString());
  std::string text;
  for (; it->Valid(); it->Next()) {
    const std::string t = std::to_string(it->GetStatsTime());
    for (const auto& e : it->GetStatsMap()) {
      text += t + " " + std::to_string(e.second) + " " + e.first + "\n";
    }
  }
  *out = copy_error(text);  // copy_error copies any string
  return nullptr;
}
