// Package rocksdb is the "rocksdb" engine: RocksDB (Debian's librocksdb 7.8.3)
// driven through its C API with cgo. It is built only with the build tag
// "rocksdb" (go build -tags rocksdb, which needs librocksdb-dev); without the
// tag the package registers the engine as missing, with that reason.
//
// Contract: Opener.Open maps every options.Options field the way db_bench
// 7.8.3 maps its flags (memtables and memtablerep, LSM shape, compaction,
// per-level compression, block-based table, block cache, I/O, statistics).
// With Options.OptionsFile set, the options come from that file through
// RocksDB's own loader (LoadOptionsFromFile) and only the block cache, a
// bloom filter (when the file has none) and statistics are added, as db_bench
// --options_file does. With Options.ReadOnly the database opens with
// rocksdb_open_for_read_only_column_families (DB::OpenForReadOnly): a missing
// database fails on its CURRENT file, and every write returns RocksDB's
// "Not implemented: Not supported operation in read only mode.".
//
// Hot paths call small C shims (shim.h, bridge.cc) instead of a general
// binding: a Put or Delete is one cgo call that clears, fills and writes the
// calling OS thread's reused WriteBatch (rocksdb_put would build a batch per
// call), a Get one call that pins the value in the thread's reused
// PinnableSlice and copies it into a pooled Go buffer before releasing the
// pin (db.go), a seek or a short run of steps one call per move (the move
// returns key and value together; with IterOptions.KeysOnly the value is read
// only when asked for), and a long run of steps in one direction one call per
// up to 128 entries, copied into a reused buffer (iterbatch.go). For
// db_bench's loops that only count what they pass, whole runs go through one
// call (engine.Runner): GetRun (readrandom's Gets), PutRun (fills'
// single-entry writes) and ScanRun (readseq's Next calls); the RocksDB calls
// are the same ones a loop of single operations makes. Given room for times,
// a run also returns when each operation ended (CLOCK_MONOTONIC after each
// call, as db_bench reads its clock), so runs serve --histogram and
// --report_interval_seconds too. Runner's MultiGet is RocksDB's batched
// MultiGet (multiget.go). None allocates on the Go heap. ReadOptions and the
// four WriteOptions combinations are created once per DB. The features the C API lacks
// (library version, loading an OPTIONS file by path, db_bench's block cache
// and table-option adjustments, CompactRange with its Status, DB::ResetStats,
// the statistics level) are C++ functions in bridge.cc. They reach the C++
// objects behind the C handles through the handle structs' definitions in
// RocksDB's c.cc (their first member), which bridge.cc repeats.
//
// The package calls the C API directly rather than through grocksdb, the
// usual Go binding: grocksdb v1.7.15 allocates 1 to 4 times per Put, Get or
// iterator step, its LatestOptions keeps the DB options of a loaded OPTIONS
// file private, and it cannot load an OPTIONS file by path. bench_test.go
// keeps grocksdb as the baseline the engine is measured against.
//
// Interfaces: Opener implements engine.Opener; DB implements engine.DB,
// engine.Runner and engine.ThreadContext; its iterators implement
// engine.Iterator and its batches engine.Batch (opener.go, db.go, iter.go
// and batch.go assert each at compile time).
//
// Per-thread state (engine.ThreadContext, perflevel.go): the driver calls
// StartThread on each benchmark thread, which sets RocksDB's thread-local
// perf level to --perf_level and resets the perf context, as db_bench's
// ThreadBody does; PerfContext gives the thread's context for
// --perf_level > 1.
//
// Property passes RocksDB property names straight to DB::GetProperty;
// StatisticsProperty ("rocksdb.options-statistics") returns the statistics
// dump when Options.Statistics is set; the DBs of an Opener made by
// SharingStatistics hold one statistics object (sharedstatistics.cc), as
// db_bench's DBs hold its dbstats.
package rocksdb
