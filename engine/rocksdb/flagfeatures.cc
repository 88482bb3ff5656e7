//go:build rocksdb

// The RocksDB features db_bench 7.8.3 sets up from flags that RocksDB's C
// API has no call for (flagfeatures.h). As in bridge.cc, the handle structs
// repeat the first member of c.cc's definitions, which is how these
// functions reach the C++ objects behind handles the C API made.

#include "flagfeatures.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include <rocksdb/cache.h>
#include <rocksdb/comparator.h>
#include <rocksdb/compaction_filter.h>
#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/sim_cache.h>
#include <rocksdb/write_buffer_manager.h>

struct rocksdb_options_t {
  ROCKSDB_NAMESPACE::Options rep;
};
struct rocksdb_cache_t {
  std::shared_ptr<ROCKSDB_NAMESPACE::Cache> rep;
};
struct rocksdb_writeoptions_t {
  ROCKSDB_NAMESPACE::WriteOptions rep;
};

namespace {

using ROCKSDB_NAMESPACE::BlockBasedTableOptions;
using ROCKSDB_NAMESPACE::CacheEntryRole;
using ROCKSDB_NAMESPACE::CacheEntryRoleOptions;
using ROCKSDB_NAMESPACE::Slice;

BlockBasedTableOptions* block_based(rocksdb_options_t* opts) {
  return opts->rep.table_factory->GetOptions<BlockBasedTableOptions>();
}

// keep_filter keeps every entry: db_bench's KeepFilter.
class keep_filter : public ROCKSDB_NAMESPACE::CompactionFilter {
 public:
  bool Filter(int, const Slice&, const Slice&, std::string*, bool*) const override {
    return false;
  }
  const char* Name() const override { return "KeepFilter"; }
};

// uint64_comparator orders 8-byte keys as the native-endian unsigned
// integers they hold, under RocksDB's test comparator's name, so a
// database it wrote opens with C++ db_bench's --use_uint64_comparator.
class uint64_comparator : public ROCKSDB_NAMESPACE::Comparator {
 public:
  const char* Name() const override { return "rocksdb.Uint64Comparator"; }
  int Compare(const Slice& a, const Slice& b) const override {
    uint64_t x = 0, y = 0;
    memcpy(&x, a.data(), a.size() < sizeof(x) ? a.size() : sizeof(x));
    memcpy(&y, b.data(), b.size() < sizeof(y) ? b.size() : sizeof(y));
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

// stderr_logger writes each info-log message to stderr as one line.
class stderr_logger : public ROCKSDB_NAMESPACE::Logger {
 public:
  using ROCKSDB_NAMESPACE::Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    vfprintf(stderr, format, ap);
    fputc('\n', stderr);
  }
};

CacheEntryRoleOptions charged(int on) {
  CacheEntryRoleOptions o;
  o.charged = on ? CacheEntryRoleOptions::Decision::kEnabled
                 : CacheEntryRoleOptions::Decision::kDisabled;
  return o;
}

// charge_roles are the roles of gdb_table_charge_cache's arguments, in order.
const CacheEntryRole charge_roles[] = {
    CacheEntryRole::kCompressionDictionaryBuildingBuffer,
    CacheEntryRole::kFilterConstruction,
    CacheEntryRole::kBlockBasedTableReader,
    CacheEntryRole::kFileMetadata,
    CacheEntryRole::kBlobCache,
};

}  // namespace

extern "C" {

rocksdb_cache_t* gdb_lru_cache_create(const gdb_lru_cache_config* cfg) {
  ROCKSDB_NAMESPACE::LRUCacheOptions opts;
  opts.capacity = cfg->capacity;
  opts.num_shard_bits = cfg->num_shard_bits;
  opts.strict_capacity_limit = false;
  opts.high_pri_pool_ratio = cfg->high_pri_pool_ratio;
  opts.low_pri_pool_ratio = cfg->low_pri_pool_ratio;
  if (cfg->use_secondary) {
    ROCKSDB_NAMESPACE::CompressedSecondaryCacheOptions sec;
    sec.capacity = cfg->secondary_capacity;
    sec.num_shard_bits = cfg->secondary_num_shard_bits;
    sec.high_pri_pool_ratio = cfg->secondary_high_pri_pool_ratio;
    sec.low_pri_pool_ratio = cfg->secondary_low_pri_pool_ratio;
    sec.compression_type =
        static_cast<ROCKSDB_NAMESPACE::CompressionType>(cfg->secondary_compression);
    sec.compress_format_version = cfg->secondary_compress_format_version;
    opts.secondary_cache = ROCKSDB_NAMESPACE::NewCompressedSecondaryCache(sec);
  }
  std::shared_ptr<ROCKSDB_NAMESPACE::Cache> c = ROCKSDB_NAMESPACE::NewLRUCache(opts);
  if (c == nullptr) return nullptr;
  return new rocksdb_cache_t{c};
}

void gdb_sim_cache_wrap(rocksdb_cache_t* cache, size_t sim_capacity, int num_shard_bits) {
  cache->rep = ROCKSDB_NAMESPACE::NewSimCache(cache->rep, sim_capacity,
                                              num_shard_bits >= 1 ? num_shard_bits : 0);
}

char* gdb_sim_cache_report(rocksdb_cache_t* cache) {
  auto* sim = dynamic_cast<ROCKSDB_NAMESPACE::SimCache*>(cache->rep.get());
  if (sim == nullptr) return nullptr;
  std::string s = sim->ToString();
  char* out = static_cast<char*>(malloc(s.size() + 1));
  memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

int gdb_table_charge_cache(rocksdb_options_t* opts, int compression_dictionary_building_buffer,
                           int filter_construction, int table_reader, int file_metadata,
                           int blob_cache) {
  BlockBasedTableOptions* t = block_based(opts);
  if (t == nullptr) return 0;
  const int on[] = {compression_dictionary_building_buffer, filter_construction, table_reader,
                    file_metadata, blob_cache};
  for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
    t->cache_usage_options.options_overrides[charge_roles[i]] = charged(on[i]);
  }
  return 1;
}

int gdb_table_charges(rocksdb_options_t* opts) {
  BlockBasedTableOptions* t = block_based(opts);
  if (t == nullptr) return -1;
  int bits = 0;
  for (size_t i = 0; i < sizeof(charge_roles) / sizeof(charge_roles[0]); i++) {
    auto it = t->cache_usage_options.options_overrides.find(charge_roles[i]);
    if (it != t->cache_usage_options.options_overrides.end() &&
        it->second.charged == CacheEntryRoleOptions::Decision::kEnabled) {
      bits |= 1 << i;
    }
  }
  return bits;
}

void gdb_set_write_buffer_manager(rocksdb_options_t* opts, size_t buffer_size,
                                  rocksdb_cache_t* cache) {
  std::shared_ptr<ROCKSDB_NAMESPACE::Cache> c;
  if (cache != nullptr) c = cache->rep;
  opts->rep.write_buffer_manager =
      std::make_shared<ROCKSDB_NAMESPACE::WriteBufferManager>(buffer_size, c);
}

void gdb_set_plain_table(rocksdb_options_t* opts, uint32_t user_key_len, int bloom_bits) {
  ROCKSDB_NAMESPACE::PlainTableOptions p;
  p.user_key_len = user_key_len;
  if (bloom_bits >= 0) p.bloom_bits_per_key = bloom_bits;
  p.hash_table_ratio = 0.75;
  opts->rep.table_factory.reset(ROCKSDB_NAMESPACE::NewPlainTableFactory(p));
}

void gdb_set_cuckoo_table(rocksdb_options_t* opts, double hash_ratio, int identity_as_first_hash) {
  ROCKSDB_NAMESPACE::CuckooTableOptions c;
  c.hash_table_ratio = hash_ratio;
  c.identity_as_first_hash = identity_as_first_hash != 0;
  opts->rep.table_factory.reset(ROCKSDB_NAMESPACE::NewCuckooTableFactory(c));
}

void gdb_set_keep_filter(rocksdb_options_t* opts) {
  static const keep_filter filter;
  opts->rep.compaction_filter = &filter;
}

void gdb_set_uint64_comparator(rocksdb_options_t* opts) {
  static const uint64_comparator cmp;
  opts->rep.comparator = &cmp;
}

void gdb_set_stderr_info_logger(rocksdb_options_t* opts) {
  opts->rep.info_log = std::make_shared<stderr_logger>();
}

void gdb_writeoptions_set_protection(rocksdb_writeoptions_t* wo, size_t bytes_per_key) {
  wo->rep.protection_bytes_per_key = bytes_per_key;
}

}  // extern "C"
