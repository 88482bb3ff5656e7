// Package pebble runs the db_bench driver against Pebble v2
// (github.com/cockroachdb/pebble/v2), registered in the engine registry as
// "pebble".
//
// Contract: Open maps every options.Options field that has a Pebble
// equivalent (see config.go for the field-by-field mapping) and reports each
// explicitly set option that Pebble cannot honour once on the warning writer.
// The database is created at FormatNewest, so its tables use Pebble's
// columnar blocks: the newest format is the honest baseline to compare
// against. The returned engine.DB follows package engine's contract: it is
// safe for concurrent use, copies nothing on reads (Get's callback and the
// iterator see Pebble's own memory), and allocates nothing per operation in
// steady state (Pebble pools its Get and iterator state; the batch wrapper is
// reused with Reset).
//
// On-disk format: Pebble's own (sstable/table.go and format_major_version.go
// in the Pebble module describe it byte by byte). This package writes no bytes
// of its own and so has no decoder to fuzz.
//
// Differences from RocksDB that the driver sees:
//   - The WAL is a database-level switch in Pebble: options.Options.DisableWAL
//     decides it at Open; a per-write WriteOptions.DisableWAL that disagrees is
//     reported once and otherwise has no effect.
//   - Pebble cannot direct a manual compaction to a level; Compact with a
//     target level warns once and compacts to Pebble's choice.
//   - Pebble charges its memtables to the block cache, RocksDB does not. The
//     cache is sized cache_size + 2 x write_buffer_size and a budget
//     (cachebudget.go) tops the memtable charge up to 2 x write_buffer_size,
//     so blocks get cache_size, as in RocksDB, unless more than two
//     memtables are live.
//   - Pebble always needs a block cache; cache_size <= 0 opens a 1-byte
//     cache, which keeps no block.
//   - ResetStats is a no-op apart from the interval counters of
//     "rocksdb.stats": Pebble's metrics are cumulative and cannot be reset.
//   - "rocksdb.stats" is Pebble's own metrics table followed by the DB-stats
//     and compaction summary lines tools/benchmark.sh greps, synthesized from
//     Pebble's metrics and from counters kept by this package.
//   - With Options.Statistics, "rocksdb.options-statistics" is RocksDB's
//     STATISTICS block from this package's own counts and Pebble's metrics
//     (statistics.go); what Pebble keeps inside prints as zero. The
//     databases of an Opener made by SharingStatistics count in one
//     block, as db_bench's share its dbstats. Pebble
//     writes no LOG, so stats_dump_period_sec has nowhere to dump.
//   - The empty key is refused with an error: Pebble v2.1.7 panics in a
//     background flush when a columnar data block holds only the empty key.
//     db_bench never writes one.
//   - A write without sync is acknowledged once its WAL record is in the OS
//     (written, not fsynced), as RocksDB does, so a process kill loses no
//     acknowledged write; Pebble's own NoSync acknowledges a write still in
//     its in-process WAL buffer. The engine commits every write as Pebble's
//     Sync and makes the WAL's fsync happen only for writes that asked for
//     one (walsync.go); a machine crash can still lose unsynced writes.
//   - Closing a database opened with the WAL off flushes its memtables
//     first, as RocksDB does, so the data survives a reopen.
//   - WaitForCompactions, and "rocksdb.compaction-pending", ignore levels
//     that need compaction while automatic compactions are off, and
//     WaitForCompactions stops waiting when Pebble leaves a level over its
//     target with nothing running for 2 s: neither ever hangs.
//   - A failed write to disk (ENOSPC, EIO and the like, on a WAL, table,
//     MANIFEST or any other file) never reaches Pebble, which would panic,
//     exit or retry forever: the first one freezes the files on disk as it
//     left them (failfs.go), and every later write, read and Close returns
//     it in RocksDB's words ("IO error: No space left on device: While
//     appending to file: <path>: No space left on device"). Reopening once
//     space exists finds every synced write acknowledged before the failure.
//   - options.Options.ReadOnly (--readonly) opens with Pebble's ReadOnly and a
//     file system that refuses every change (readonly.go): the directory is
//     left byte for byte as it was, a missing LOCK is not created, writes
//     fail with RocksDB's "Not implemented: Not supported operation in read
//     only mode.", and a directory without a Pebble database fails to open.
//   - Open refuses, with a Corruption error naming the file and deleting
//     nothing, a directory holding tables, WALs or a MANIFEST but no
//     MANIFEST marker (Pebble would open it as a new database and delete
//     them), and a MANIFEST with a damaged chunk anywhere (Pebble would open
//     the state before the damage and delete what later edits made live);
//     a MANIFEST cut short, as a crash mid-append leaves it, opens; a WAL
//     with a damaged record that valid records follow is refused (Pebble
//     replayed it up to the damage and dropped the rest silently), a WAL
//     whose damage is only at its end opens (walcheck.go); a
//     RocksDB-format directory (CURRENT, no marker) is refused saying what
//     it is (opencheck.go). On-disk corruption found by a read is returned by
//     that read; Pebble's default of exiting the process is switched off.
//   - write_buffer_size under 64 KiB is raised to 64 KiB, as RocksDB does,
//     and a block_size RocksDB refuses is refused in its words (validate.go).
//   - The memtable entry counts ("rocksdb.num-entries-active-mem-table",
//     "rocksdb.num-entries-imm-mem-tables") are not exposed by Pebble; those two
//     properties report not supported.
//   - The maintenance calls (engine.Maintainer, maintenance.go): Pebble has
//     no CompactFiles, so compacting named tables compacts their key range
//     down to the last level holding it, with a warning; it records no
//     whole-file checksums; it keeps no statistics history; and its block
//     cache does not tell data, index and filter blocks apart, so
//     "rocksdb.block-cache-entry-stats" lists all of them as RocksDB's
//     Misc role.
package pebble
