// gdb_file_counters: db_bench's --report_file_operations for the rocksdb
// engine (filecounters.cc).

#ifndef GODBBENCH_FILECOUNTERS_H
#define GODBBENCH_FILECOUNTERS_H

#include <stddef.h>
#include <rocksdb/c.h>

#ifdef __cplusplus
extern "C" {
#endif

// gdb_use_counted_fs makes opts open its DB on the process's counting file
// system: the default file system wrapped so that it counts what db_bench's
// CountedFileSystem counts. The counters are the process's, one set for
// every DB opened so, as db_bench's are.
void gdb_use_counted_fs(rocksdb_options_t* opts);

// gdb_file_counters_report writes the counters into buf (at most len bytes
// with the terminating NUL) in db_bench's words, one "Num ...: N" line
// each, resets them, and returns the length of the whole report.
size_t gdb_file_counters_report(char* buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
