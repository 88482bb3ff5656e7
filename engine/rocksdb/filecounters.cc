//go:build rocksdb

// A FileSystem that counts file operations, for db_bench's
// --report_file_operations: files opened, closed, deleted and renamed;
// Flush, Sync (RangeSync included) and Fsync calls on files; Fsync calls,
// opens and closes of directories; reads and appends with their bytes.
// What it counts, and when (a successful call; a read or append even when
// it failed, unless the file does not support it, its bytes only when it
// succeeded; the close of a file read from when it is destroyed), is what
// RocksDB 7.8.3's CountedFileSystem counts, which db_bench installs with
// the flag.

#include "filecounters.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include <rocksdb/env.h>
#include <rocksdb/file_system.h>
#include <rocksdb/options.h>

struct rocksdb_options_t {
  ROCKSDB_NAMESPACE::Options rep;
};

namespace {

using ROCKSDB_NAMESPACE::DirFsyncOptions;
using ROCKSDB_NAMESPACE::FileOptions;
using ROCKSDB_NAMESPACE::FileSystem;
using ROCKSDB_NAMESPACE::FSDirectory;
using ROCKSDB_NAMESPACE::FSReadRequest;
using ROCKSDB_NAMESPACE::FSRandomAccessFile;
using ROCKSDB_NAMESPACE::FSRandomRWFile;
using ROCKSDB_NAMESPACE::FSSequentialFile;
using ROCKSDB_NAMESPACE::FSWritableFile;
using ROCKSDB_NAMESPACE::IODebugContext;
using ROCKSDB_NAMESPACE::IOOptions;
using ROCKSDB_NAMESPACE::IOStatus;
using ROCKSDB_NAMESPACE::Slice;

// FileCounts are the counters, in the order db_bench prints them.
struct FileCounts {
  std::atomic<uint64_t> opens{0}, deletes{0}, renames{0}, flushes{0}, syncs{0}, fsyncs{0},
      dir_fsyncs{0}, closes{0}, dir_opens{0}, dir_closes{0}, reads{0}, appends{0}, read_bytes{0},
      written_bytes{0};

  void reset() {
    for (auto* c : {&opens, &deletes, &renames, &flushes, &syncs, &fsyncs, &dir_fsyncs, &closes,
                    &dir_opens, &dir_closes, &reads, &appends, &read_bytes, &written_bytes}) {
      c->store(0, std::memory_order_relaxed);
    }
  }
};

FileCounts counts;

void bump(std::atomic<uint64_t>& c) { c.fetch_add(1, std::memory_order_relaxed); }

// transfer counts one read or append of n bytes that returned s.
void transfer(std::atomic<uint64_t>& ops, std::atomic<uint64_t>& bytes, const IOStatus& s,
              size_t n) {
  if (!s.IsNotSupported()) bump(ops);
  if (s.ok()) bytes.fetch_add(n, std::memory_order_relaxed);
}

// on_ok bumps c when s is OK and returns s.
IOStatus on_ok(std::atomic<uint64_t>& c, IOStatus s) {
  if (s.ok()) bump(c);
  return s;
}

class SequentialCounted : public ROCKSDB_NAMESPACE::FSSequentialFileOwnerWrapper {
 public:
  using FSSequentialFileOwnerWrapper::FSSequentialFileOwnerWrapper;
  ~SequentialCounted() override { bump(counts.closes); }
  IOStatus Read(size_t n, const IOOptions& o, Slice* result, char* scratch,
                IODebugContext* dbg) override {
    IOStatus s = target()->Read(n, o, result, scratch, dbg);
    transfer(counts.reads, counts.read_bytes, s, result->size());
    return s;
  }
  IOStatus PositionedRead(uint64_t offset, size_t n, const IOOptions& o, Slice* result,
                          char* scratch, IODebugContext* dbg) override {
    IOStatus s = target()->PositionedRead(offset, n, o, result, scratch, dbg);
    transfer(counts.reads, counts.read_bytes, s, result->size());
    return s;
  }
};

class RandomAccessCounted : public ROCKSDB_NAMESPACE::FSRandomAccessFileOwnerWrapper {
 public:
  using FSRandomAccessFileOwnerWrapper::FSRandomAccessFileOwnerWrapper;
  ~RandomAccessCounted() override { bump(counts.closes); }
  IOStatus Read(uint64_t offset, size_t n, const IOOptions& o, Slice* result, char* scratch,
                IODebugContext* dbg) const override {
    IOStatus s = target()->Read(offset, n, o, result, scratch, dbg);
    transfer(counts.reads, counts.read_bytes, s, result->size());
    return s;
  }
  IOStatus MultiRead(FSReadRequest* reqs, size_t num_reqs, const IOOptions& o,
                     IODebugContext* dbg) override {
    IOStatus s = target()->MultiRead(reqs, num_reqs, o, dbg);
    for (size_t i = 0; i < num_reqs; i++) {
      transfer(counts.reads, counts.read_bytes, reqs[i].status, reqs[i].result.size());
    }
    return s;
  }
};

// SyncCounted counts the Flush, Sync, Fsync and Close calls of a file
// written to, whose owning wrapper is Base.
template <typename Base>
class SyncCounted : public Base {
 public:
  using Base::Base;
  IOStatus Flush(const IOOptions& o, IODebugContext* dbg) override {
    return on_ok(counts.flushes, this->target()->Flush(o, dbg));
  }
  IOStatus Sync(const IOOptions& o, IODebugContext* dbg) override {
    return on_ok(counts.syncs, this->target()->Sync(o, dbg));
  }
  IOStatus Fsync(const IOOptions& o, IODebugContext* dbg) override {
    return on_ok(counts.fsyncs, this->target()->Fsync(o, dbg));
  }
  IOStatus Close(const IOOptions& o, IODebugContext* dbg) override {
    return on_ok(counts.closes, this->target()->Close(o, dbg));
  }
};

class WritableCounted : public SyncCounted<ROCKSDB_NAMESPACE::FSWritableFileOwnerWrapper> {
 public:
  using SyncCounted::SyncCounted;
  IOStatus Append(const Slice& data, const IOOptions& o, IODebugContext* dbg) override {
    IOStatus s = target()->Append(data, o, dbg);
    transfer(counts.appends, counts.written_bytes, s, data.size());
    return s;
  }
  IOStatus Append(const Slice& data, const IOOptions& o,
                  const ROCKSDB_NAMESPACE::DataVerificationInfo& info,
                  IODebugContext* dbg) override {
    IOStatus s = target()->Append(data, o, info, dbg);
    transfer(counts.appends, counts.written_bytes, s, data.size());
    return s;
  }
  IOStatus PositionedAppend(const Slice& data, uint64_t offset, const IOOptions& o,
                            IODebugContext* dbg) override {
    IOStatus s = target()->PositionedAppend(data, offset, o, dbg);
    transfer(counts.appends, counts.written_bytes, s, data.size());
    return s;
  }
  IOStatus PositionedAppend(const Slice& data, uint64_t offset, const IOOptions& o,
                            const ROCKSDB_NAMESPACE::DataVerificationInfo& info,
                            IODebugContext* dbg) override {
    IOStatus s = target()->PositionedAppend(data, offset, o, info, dbg);
    transfer(counts.appends, counts.written_bytes, s, data.size());
    return s;
  }
  IOStatus RangeSync(uint64_t offset, uint64_t nbytes, const IOOptions& o,
                     IODebugContext* dbg) override {
    return on_ok(counts.syncs, target()->RangeSync(offset, nbytes, o, dbg));
  }
};

class RandomRWCounted : public SyncCounted<ROCKSDB_NAMESPACE::FSRandomRWFileOwnerWrapper> {
 public:
  using SyncCounted::SyncCounted;
  IOStatus Write(uint64_t offset, const Slice& data, const IOOptions& o,
                 IODebugContext* dbg) override {
    IOStatus s = target()->Write(offset, data, o, dbg);
    transfer(counts.appends, counts.written_bytes, s, data.size());
    return s;
  }
  IOStatus Read(uint64_t offset, size_t n, const IOOptions& o, Slice* result, char* scratch,
                IODebugContext* dbg) const override {
    IOStatus s = target()->Read(offset, n, o, result, scratch, dbg);
    transfer(counts.reads, counts.read_bytes, s, result->size());
    return s;
  }
};

// DirectoryCounted counts a directory's close once: at Close, or when it is
// destroyed unclosed.
class DirectoryCounted : public ROCKSDB_NAMESPACE::FSDirectoryWrapper {
 public:
  using FSDirectoryWrapper::FSDirectoryWrapper;
  ~DirectoryCounted() override {
    if (!closed_) countClose();
  }
  IOStatus Fsync(const IOOptions& o, IODebugContext* dbg) override {
    return on_ok(counts.dir_fsyncs, FSDirectoryWrapper::Fsync(o, dbg));
  }
  IOStatus FsyncWithDirOptions(const IOOptions& o, IODebugContext* dbg,
                               const DirFsyncOptions& dir_options) override {
    return on_ok(counts.dir_fsyncs, FSDirectoryWrapper::FsyncWithDirOptions(o, dbg, dir_options));
  }
  IOStatus Close(const IOOptions& o, IODebugContext* dbg) override {
    IOStatus s = FSDirectoryWrapper::Close(o, dbg);
    if (s.ok()) {
      countClose();
      closed_ = true;
    }
    return s;
  }

 private:
  static void countClose() {
    bump(counts.closes);
    bump(counts.dir_closes);
  }
  bool closed_ = false;
};

// wrapOpened wraps *result, a file just opened with status s, in W and
// counts the open.
template <typename W, typename F>
IOStatus wrapOpened(IOStatus s, std::unique_ptr<F>* result) {
  if (s.ok()) {
    bump(counts.opens);
    result->reset(new W(std::move(*result)));
  }
  return s;
}

class CountingFileSystem : public ROCKSDB_NAMESPACE::FileSystemWrapper {
 public:
  using FileSystemWrapper::FileSystemWrapper;
  const char* Name() const override { return "GodbbenchCountingFileSystem"; }

  IOStatus NewSequentialFile(const std::string& f, const FileOptions& o,
                             std::unique_ptr<FSSequentialFile>* r, IODebugContext* dbg) override {
    return wrapOpened<SequentialCounted>(target()->NewSequentialFile(f, o, r, dbg), r);
  }
  IOStatus NewRandomAccessFile(const std::string& f, const FileOptions& o,
                               std::unique_ptr<FSRandomAccessFile>* r,
                               IODebugContext* dbg) override {
    return wrapOpened<RandomAccessCounted>(target()->NewRandomAccessFile(f, o, r, dbg), r);
  }
  IOStatus NewWritableFile(const std::string& f, const FileOptions& o,
                           std::unique_ptr<FSWritableFile>* r, IODebugContext* dbg) override {
    return wrapOpened<WritableCounted>(target()->NewWritableFile(f, o, r, dbg), r);
  }
  IOStatus ReopenWritableFile(const std::string& f, const FileOptions& o,
                              std::unique_ptr<FSWritableFile>* r, IODebugContext* dbg) override {
    return wrapOpened<WritableCounted>(target()->ReopenWritableFile(f, o, r, dbg), r);
  }
  IOStatus ReuseWritableFile(const std::string& f, const std::string& old, const FileOptions& o,
                             std::unique_ptr<FSWritableFile>* r, IODebugContext* dbg) override {
    return wrapOpened<WritableCounted>(target()->ReuseWritableFile(f, old, o, r, dbg), r);
  }
  IOStatus NewRandomRWFile(const std::string& f, const FileOptions& o,
                           std::unique_ptr<FSRandomRWFile>* r, IODebugContext* dbg) override {
    return wrapOpened<RandomRWCounted>(target()->NewRandomRWFile(f, o, r, dbg), r);
  }
  IOStatus NewDirectory(const std::string& name, const IOOptions& o,
                        std::unique_ptr<FSDirectory>* r, IODebugContext* dbg) override {
    IOStatus s = wrapOpened<DirectoryCounted>(target()->NewDirectory(name, o, r, dbg), r);
    if (s.ok()) bump(counts.dir_opens);
    return s;
  }
  IOStatus DeleteFile(const std::string& f, const IOOptions& o, IODebugContext* dbg) override {
    return on_ok(counts.deletes, target()->DeleteFile(f, o, dbg));
  }
  IOStatus RenameFile(const std::string& from, const std::string& to, const IOOptions& o,
                      IODebugContext* dbg) override {
    return on_ok(counts.renames, target()->RenameFile(from, to, o, dbg));
  }
};

// countingEnv is the process's Env over the counting file system, made on
// first use and kept until the process ends, as db_bench's is.
ROCKSDB_NAMESPACE::Env* countingEnv() {
  static ROCKSDB_NAMESPACE::Env* env =
      ROCKSDB_NAMESPACE::NewCompositeEnv(std::make_shared<CountingFileSystem>(FileSystem::Default()))
          .release();
  return env;
}

}  // namespace

extern "C" {

void gdb_use_counted_fs(rocksdb_options_t* opts) { opts->rep.env = countingEnv(); }

size_t gdb_file_counters_report(char* buf, size_t len) {
  auto v = [](const std::atomic<uint64_t>& c) {
    return static_cast<unsigned long long>(c.load(std::memory_order_relaxed));
  };
  std::string out;
  const struct {
    const char* name;
    const std::atomic<uint64_t>* c;
  } lines[] = {
      {"Num files opened", &counts.opens},    {"Num files deleted", &counts.deletes},
      {"Num files renamed", &counts.renames}, {"Num Flush()", &counts.flushes},
      {"Num Sync()", &counts.syncs},          {"Num Fsync()", &counts.fsyncs},
      {"Num Dir Fsync()", &counts.dir_fsyncs}, {"Num Close()", &counts.closes},
      {"Num Dir Open()", &counts.dir_opens},  {"Num Dir Close()", &counts.dir_closes},
      {"Num Read()", &counts.reads},          {"Num Append()", &counts.appends},
      {"Num bytes read", &counts.read_bytes}, {"Num bytes written", &counts.written_bytes},
  };
  char line[96];
  for (const auto& l : lines) {
    snprintf(line, sizeof(line), "%s: %llu\n", l.name, v(*l.c));
    out += line;
  }
  counts.reset();
  if (len > 0) {
    size_t n = out.size() < len - 1 ? out.size() : len - 1;
    memcpy(buf, out.data(), n);
    buf[n] = '\0';
  }
  return out.size();
}

}  // extern "C"
