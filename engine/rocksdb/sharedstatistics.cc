//go:build rocksdb

// One Statistics object for several DBs' options (sharedstatistics.h).

#include "sharedstatistics.h"

#include <memory>

#include <rocksdb/options.h>
#include <rocksdb/statistics.h>

struct rocksdb_options_t {
  ROCKSDB_NAMESPACE::Options rep;
};

struct gdb_shared_statistics_t {
  std::shared_ptr<ROCKSDB_NAMESPACE::Statistics> rep;
};

extern "C" {

gdb_shared_statistics_t* gdb_shared_statistics_create(int level) {
  auto* s = new gdb_shared_statistics_t;
  s->rep = ROCKSDB_NAMESPACE::CreateDBStatistics();
  s->rep->set_stats_level(static_cast<ROCKSDB_NAMESPACE::StatsLevel>(level));
  return s;
}

void gdb_shared_statistics_set(rocksdb_options_t* opts, gdb_shared_statistics_t* s) {
  opts->rep.statistics = s->rep;
}

}  // extern "C"
