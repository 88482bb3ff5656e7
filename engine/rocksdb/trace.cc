//go:build rocksdb

// RocksDB's own query tracer (DB::StartTrace, DB::EndTrace), which the C
// API of 7.8.3 does not expose, for db_bench's --trace_file. As in
// bridge.cc, rocksdb_t repeats c.cc's definition (its only member is the
// DB pointer).

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include <rocksdb/c.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/trace_reader_writer.h>

struct rocksdb_t {
  ROCKSDB_NAMESPACE::DB* rep;
};

namespace {
char* trace_error(const ROCKSDB_NAMESPACE::Status& st) {
  if (st.ok()) return nullptr;
  std::string s = st.ToString();
  char* out = static_cast<char*>(malloc(s.size() + 1));
  memcpy(out, s.data(), s.size());
  out[s.size()] = '\0';
  return out;
}
}  // namespace

extern "C" {

// gdb_start_trace is what db_bench does for --trace_file: a file trace
// writer on path (NewFileTraceWriter) and DB::StartTrace with default
// TraceOptions. It returns an error string (free with free) or NULL.
char* gdb_start_trace(rocksdb_t* db, const char* path) {
  std::unique_ptr<ROCKSDB_NAMESPACE::TraceWriter> writer;
  ROCKSDB_NAMESPACE::Status st = ROCKSDB_NAMESPACE::NewFileTraceWriter(
      ROCKSDB_NAMESPACE::Env::Default(), ROCKSDB_NAMESPACE::EnvOptions(), path, &writer);
  if (st.ok()) {
    st = db->rep->StartTrace(ROCKSDB_NAMESPACE::TraceOptions(), std::move(writer));
  }
  return trace_error(st);
}

// gdb_end_trace is DB::EndTrace: the footer is written and the file closed.
char* gdb_end_trace(rocksdb_t* db) { return trace_error(db->rep->EndTrace()); }

// gdb_start_block_cache_trace is what db_bench does for
// --block_cache_trace_file: a file trace writer on path and
// DB::StartBlockCacheTrace with the given maximum file size and sampling
// frequency. It returns an error string (free with free) or NULL.
char* gdb_start_block_cache_trace(rocksdb_t* db, const char* path, uint64_t max_size,
                                  uint64_t sampling_frequency) {
  ROCKSDB_NAMESPACE::TraceOptions opts;
  opts.max_trace_file_size = max_size;
  opts.sampling_frequency = sampling_frequency;
  std::unique_ptr<ROCKSDB_NAMESPACE::TraceWriter> writer;
  ROCKSDB_NAMESPACE::Status st = ROCKSDB_NAMESPACE::NewFileTraceWriter(
      ROCKSDB_NAMESPACE::Env::Default(), ROCKSDB_NAMESPACE::EnvOptions(), path, &writer);
  if (st.ok()) st = db->rep->StartBlockCacheTrace(opts, std::move(writer));
  return trace_error(st);
}

// gdb_end_block_cache_trace is DB::EndBlockCacheTrace.
char* gdb_end_block_cache_trace(rocksdb_t* db) {
  return trace_error(db->rep->EndBlockCacheTrace());
}

}  // extern "C"
