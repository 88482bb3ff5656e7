// The rocksdb engine's sortlist merge operator: see sortlist.cc.
#ifndef GODBBENCH_ROCKSDB_SORTLIST_H
#define GODBBENCH_ROCKSDB_SORTLIST_H

#ifdef __cplusplus
#include <memory>

#include <rocksdb/merge_operator.h>

// gdb_is_sortlist_name reports whether a --merge_operator value names
// RocksDB's SortList ("sortlist" or "MergeSortOperator").
bool gdb_is_sortlist_name(const char* name);

// gdb_new_sortlist makes the engine's bounded SortList.
std::shared_ptr<ROCKSDB_NAMESPACE::MergeOperator> gdb_new_sortlist();
#endif

#endif
