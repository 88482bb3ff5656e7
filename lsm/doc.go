// Package lsm is the native engine: a log-structured merge tree (leveled,
// universal or FIFO compaction) with RocksDB's option names and semantics,
// built on package memtable (the
// in-memory reps), packages sst and rtable (the block and read-optimized
// table formats, table.go) and package wal (the record log used for WALs
// and the MANIFEST).
//
// # Contract
//
//   - A DB is safe for concurrent use. Writes (Write, Flush) are applied in
//     one total order of sequence numbers; a write is visible to Get and new
//     iterators when Write returns, and durable on return when it asked for
//     Sync and did not disable the WAL. Without Sync it survives the
//     process (it has reached the operating system) but not the machine:
//     through write(2) per commit group, or with Options.MmapWrite
//     (--mmap_write) through a shared mapping of a preallocated WAL file,
//     which costs no system call (walmmap_linux.go).
//   - Get, iterators and snapshots read one consistent sequence number. Bytes
//     handed out (Get's callback argument, Iterator.Key and Value) are valid
//     only until the callback returns or the iterator moves.
//   - Batch.DeleteRange writes a range tombstone: Get, iterators and
//     snapshots after it see none of the keys in [start, end) written before
//     it, wherever those live (rangedel_read.go). Memtables keep range
//     tombstones beside their rep (rangedel_mem.go), tables in a
//     range-deletion block (package sst; such a table is always in the block
//     format), and compactions drop what they cover
//     (compaction_rangedel.go).
//   - An iterator that meets an error (a table that cannot be opened or
//     read) is invalid at once with Error set and returns no entry after it;
//     a seek clears the error and retries (iter_db.go). A compaction whose
//     input fails installs nothing.
//   - With Options.MmapRead a table file that shrinks after it was mapped
//     gives sst.ErrCorruption errors, not SIGBUS, from Get, iterators and
//     compactions (fault.go). rtable tables are always mapped; one that
//     shrinks gives those errors from Get and compactions, while an
//     iterator over it, which hands out bytes in place, faults.
//   - Options.TableFormat chooses the format of new tables below L0
//     ("block", the default, or "rtable"); a table is always read in the
//     format its file has, so a DB may hold both.
//   - The I/O options (rate limiter, direct reads and writes, read-ahead,
//     bytes_per_sync, wal_bytes_per_sync, use_fsync) act on table, blob
//     and WAL files as fileio.go says; direct I/O on a file system without
//     O_DIRECT fails Open in RocksDB's words, never falling back.
//   - wal_compression=zstd (Options.Extra) writes every new WAL as a
//     zstd-compressed log in RocksDB's format (walcompress.go, package
//     wal); recovery reads compressed and plain WALs alike.
//   - After a WAL, MANIFEST or table write or fsync fails, the DB keeps
//     serving reads but refuses writes with an error wrapping the cause
//     ("lsm: writes stopped after a background error: ...").
//   - Options.Memtablerep names a rep registered with package memtable; lsm
//     registers none itself, so the program that links it in (engine/native)
//     imports the reps it offers. An unregistered name fails Open.
//   - Undecodable bytes in any file give an error that wraps wal.ErrCorruption,
//     ErrCorruptManifest, ErrCorruptBatch or sst.ErrCorruption, never a panic.
//     What damage in a WAL means is Options.WALRecoveryMode's choice (RocksDB's
//     four modes, walrecovery.go); by default (point in time) a torn tail or
//     damage at the end of the log ends it, and damage followed by records
//     that decode fails the open. A MANIFEST's torn last record ends it.
//   - Open never deletes a file it cannot prove obsolete and fails with an
//     error wrapping ErrCorruption, changing nothing, when the files disagree
//     (opencheck.go): no CURRENT beside tables or WALs, a listed table missing,
//     of another size or with a footer that does not decode, a table in no
//     version holding writes the recovered state lacks, unless it is the
//     output of a flush begun and not ended whose WAL exists (then it is
//     deleted and the flush's writes that skipped the WAL are lost, as in
//     RocksDB; pendingflush.go). A RocksDB or Pebble directory is refused by name
//     (foreign.go). Recovery records each WAL's tables in the MANIFEST and
//     deletes that WAL before reading the next.
//   - A flush records its start in the MANIFEST (synced) before it creates
//     its table. The DB directory is fsynced after new tables are written
//     and before the MANIFEST edit that names them; a flushed WAL is
//     deleted only after that edit is synced.
//   - One process at a time: Open takes an flock on LOCK and fails with
//     ErrLocked otherwise ("IO error: While lock file: <dir>/LOCK: Resource
//     temporarily unavailable").
//   - Options.ReadOnly opens an existing DB read-only (readonly.go): no LOCK,
//     no file created, written or deleted; WALs are replayed into memtables;
//     Write, Flush and Compact fail with ErrReadOnly. It opens the families
//     Config.ColumnFamilies names, which may be fewer than the DB has, and
//     refuses a name the DB lacks ("Invalid argument: Column family not
//     found: <name>").
//   - Destroy (destroy.go) takes LOCK and deletes only files the engine
//     names, never directories or link targets.
//   - Column families, with RocksDB's semantics (family.go): each family
//     has its own memtables (switched at its own write_buffer_size), L0
//     flushes, levels and compactions; the WAL, MANIFEST, sequence and
//     file numbers, lock and background error are shared, so one batch
//     writes several families atomically. Open names the families besides
//     the default (Config.ColumnFamilies), creating those missing, and
//     read-write refuses a DB whose MANIFEST holds live families it does
//     not name ("Invalid argument: Column families not opened: <names>");
//     CreateColumnFamily adds one later. A ColumnFamily handle reads one
//     family; batches name families by id (Batch.PutCF and the like), and
//     Write refuses a batch naming a family the DB lacks ("Invalid
//     argument: Invalid column family specified in write batch") before it
//     takes a sequence. A WAL is kept until every family's writes in it
//     are in tables (the lowest log number of the families), and recovery
//     replays each record into its family unless the WAL is below that
//     family's log number; records of a family the DB does not have are
//     skipped, as RocksDB skips a dropped family's. Any family's backlog
//     stalls every write, as RocksDB's write controller does. Not yet:
//     dropping a family, a read-only open with families, manual
//     compaction, metrics and checkpoints of families other than the
//     default.
//   - Close waits for queued writes and background work, flushes memtables
//     holding writes that skipped the WAL, and must be called after every
//     iterator is closed.
//
// # Files
//
// In the DB directory (WALs in Options.WALDir when set):
//
//	CURRENT           "MANIFEST-<n>\n", replaced atomically: written to
//	                  <n>.dbtmp, fsynced, renamed, directory fsynced
//	MANIFEST-<n>      version edits, one wal record each (6 digits, zero padded)
//	<n>.log           a WAL: one wal record per committed batch; with
//	                  MmapWrite, zeros up to a multiple of the extent (64 KiB
//	                  to 1 MiB, by write buffer size) follow the records
//	                  until the WAL is closed
//	<n>.sst           a table (format in package sst)
//	<n>.blob          a blob file: values kept out of the tables (format
//	                  in package blob; blob_file.go has the rules)
//	LOCK              flock target
//	LOG               a text log whose first line ends in "RocksDB version: <v>",
//	                  the line tools/benchmark.sh reads
//
// File numbers come from one counter shared by all kinds.
//
// # Batch (WAL record) format
//
// A batch is RocksDB's WriteBatch encoding restricted to Put, Delete,
// Merge and DeleteRange:
//
//	offset size  field
//	0      8     sequence number of the first record, little-endian
//	8      4     record count, little-endian
//	12     ...   records
//
// A record is a kind byte, then the key as a uvarint length and its bytes,
// then for kind 1 (Put) and kind 2 (Merge, RocksDB's kTypeMerge) the value
// (the merge operand) the same way; kind 0 (Delete) has no value; kind 15
// (DeleteRange, RocksDB's kTypeRangeDeletion) stores the range's start as
// its key and its exclusive end as its value.
// The i-th record gets sequence number first+i. Example, Put("k1","v1") then
// Delete("k2") at sequence 100:
//
//	64 00 00 00 00 00 00 00  02 00 00 00  01 02 6b 31 02 76 31  00 02 6b 32
//
// and Merge("k1","+1") alone at sequence 7:
//
//	07 00 00 00 00 00 00 00  01 00 00 00  02 02 6b 31 02 2b 31
//
// and DeleteRange("a","c") alone at sequence 9:
//
//	09 00 00 00 00 00 00 00  01 00 00 00  0f 01 61 01 63
//
// A record for a column family other than the default has kind 4, 5, 6 or
// 14 (RocksDB's kTypeColumnFamilyDeletion, Value, Merge and RangeDeletion)
// and the family id as a uvarint before the key (batch_family.go); a batch
// that names only the default family is encoded as above.
//
// A record count that disagrees with the records, an unknown kind or a length
// past the end is ErrCorruptBatch.
//
// # MANIFEST format (version edits)
//
// Each record of a MANIFEST is one version edit: a sequence of fields, each a
// uvarint tag followed by its payload. Integers are uvarints, byte strings a
// uvarint length then the bytes.
//
//	tag 1  log number       uvarint: WALs numbered below it are flushed
//	tag 2  next file number uvarint
//	tag 3  last sequence    uvarint
//	tag 4  deleted table    level uvarint, file number uvarint
//	tag 5  new table        level, file number, file size (uvarints),
//	                        smallest key, largest key (byte strings),
//	                        smallest sequence, largest sequence (uvarints)
//	tag 6  flush begins     table number, WAL number, smallest sequence,
//	                        largest sequence, flags (uvarints; flags bit 0:
//	                        some writes skipped the WAL, other bits zero)
//	tag 7  flush ends       table number uvarint
//	tag 32 new table with   the fields of tag 5, then the number of range
//	       range tombstones tombstones in its range-deletion block (uvarint,
//	                        at least 1); written instead of tag 5 for such
//	                        tables, so reads know which tables to consult
//	                        for range tombstones without opening the others
//	tag 200 column family, 201 column family add, 202 column family
//	        drop, 203 max column family (edit_family.go; never written
//	        while the DB has only the default family)
//	tag 400 blob file addition, tag 401 blob file garbage (blob_edit.go)
//
// Example: {log 3, next 9, last seq 100} is 01 03 02 09 03 64. The first record
// of every MANIFEST is a full snapshot (all live tables); later records are
// deltas. An unknown tag, a level >= 64, a truncated field, tables that
// overlap within a level >= 1, a flush whose smallest sequence is above its
// largest or with unknown flags is ErrCorruptManifest.
//
// A flush appends and fsyncs an edit holding only tag 6 before it creates
// its table: the table's number, the oldest WAL its memtables were logged
// to and their sequence range. The edit that adds the table carries tag 7
// with the same number. Example: the flush of table 12, logged to WAL 10,
// sequences 101 to 300, some unlogged, begins with 06 0c 0a 65 ac 02 01 and
// ends with an edit holding 07 0c (pendingflush.go says what Open proves
// with them). Tags 6 and 7 never appear in a snapshot; a MANIFEST written
// before they existed reads as before.
//
// # Write path
//
// Write queues the batch; the head of the queue leads a commit group (see
// commit.go): sequence numbers, one WAL write and optional fsync for the
// group, parallel memtable inserts (a lone batch of 256 or more records is
// split between two goroutines, see insert_split.go), then publication of
// the last sequence.
// A memtable is full when the memory it holds (its rep's, its key filter's,
// its range tombstones') reaches write_buffer_size, as RocksDB counts its
// arena (memtable.go's full); it then becomes immutable, a new
// WAL and memtable start, and a flush writes the immutable memtables (merged
// when min_write_buffer_number_to_merge > 1) to one L0 table. Writes stall
// while max_write_buffer_number memtables exist or L0 holds
// level0_stop_writes_trigger tables, and are held to delayed_write_rate from
// level0_slowdown_writes_trigger on (and, with max_write_buffer_number > 3,
// one memtable before the stop); all count in rocksdb.stats' Stalls line.
//
// # Versions, reads and compaction
//
// The current version lists tables per level; L0 tables may overlap (newest
// first), deeper levels are sorted and disjoint. Get reads the memtables, then
// L0 newest first, then one table per level found by binary search on the
// largest keys (each table checks its bloom filter first; with a prefix
// extractor, memtables have bloom filters too and prefix seeks skip the
// sources whose filters rule the prefix out: prefix.go). Reads pin the
// memtables and version through one atomically published read state (one
// compare-and-swap per read, no lock). Iterators merge all sources with a
// heap of cached keys and load values lazily.
//
// Leveled compaction scores L0 by file count over
// level0_file_num_compaction_trigger and level n >= 1 by bytes over
// max_bytes_for_level_base * multiplier^(n-1); the highest score >= 1 runs:
// all of L0 into L1, or one table of level n with its overlap in n+1, the
// first in compaction_pri's order that is free (by default the fewest bytes
// of n+1 per byte of its own: compaction_pri.go). A lone table with no
// overlap is moved by a MANIFEST edit. Output tables split on user-key
// boundaries at target_file_size_base * target_file_size_multiplier^(n-1),
// and earlier at boundaries of the tables of n+2 as RocksDB's
// level_compaction_dynamic_file_size cuts them (compaction_cut.go); they
// use LevelCompression(n). Versions hidden by a newer
// one that every live snapshot also sees are dropped; tombstones are dropped
// when no deeper level overlaps the range. Up to max_background_jobs - 1
// compactions (at least one) run beside one flush.
//
// When no score asks for a compaction, reads may (compaction_read.go, after
// LevelDB's seek compaction): each table takes max(100, size/16 KiB) reads
// that probed it in vain (a Get that went on to another table, a SeekGE
// whose key lies in several tables' ranges), then it is compacted into the
// next level (an L0 table: all of L0 into L1). Config.DisableReadCompactions
// turns this off.
//
// compaction_style 1 (universal, compaction_universal.go) and 2 (FIFO,
// compaction_fifo.go) replace the leveled picker with RocksDB's: universal
// merges spans of sorted runs (L0 tables, then whole levels) by size
// amplification, size ratio and run count; FIFO keeps all tables in L0 and
// drops the oldest, unread, once they exceed max_table_files_size, merging
// small L0 tables first when allowed. A table written to L0 by either is
// one table, never split.
//
// # Merge
//
// Merge operands (kind 2) are applied by Config.MergeOperator when read:
// Get and the iterator's Value merge a key's operands down to a value, a
// tombstone or the last level; flushes and compactions combine operands
// within a snapshot stripe, fully or partially as the operator allows
// (merge.go, compaction_merge.go).
package lsm
