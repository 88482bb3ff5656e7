// gdb_shared_statistics: one RocksDB Statistics object in the options of
// several DBs, as db_bench sets its dbstats on every DB it opens
// (sharedstatistics.cc).

#ifndef GODBBENCH_SHAREDSTATISTICS_H
#define GODBBENCH_SHAREDSTATISTICS_H

#include <rocksdb/c.h>

#ifdef __cplusplus
extern "C" {
#endif

// gdb_shared_statistics_t holds a std::shared_ptr<Statistics>.
typedef struct gdb_shared_statistics_t gdb_shared_statistics_t;

// gdb_shared_statistics_create makes a statistics object
// (CreateDBStatistics) recording at level (a StatsLevel value). It is
// never freed: like db_bench's dbstats it lives as long as the process.
gdb_shared_statistics_t* gdb_shared_statistics_create(int level);

// gdb_shared_statistics_set makes opts count in s: the options share the
// object, as options.statistics = dbstats does.
void gdb_shared_statistics_set(rocksdb_options_t* opts, gdb_shared_statistics_t* s);

#ifdef __cplusplus
}
#endif

#endif
