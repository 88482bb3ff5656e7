package native

import "github.com/godbbench/godbbench/engine"

// ownNotes are what the native engine does itself with options that the
// shared notes (engine.RateLimiterAndRowCacheNotes, engine.ReadOptionNotes)
// describe for an engine without the feature: the row cache, the prefix
// read options (lsm/iter_prefix.go) and the I/O options (lsm/fileio.go).
// engine.Overlay puts them in place of the shared notes; a note without
// How drops the key's shared note, the option being applied as RocksDB
// applies it.
var ownNotes = []engine.OptionNote{
	{Key: "pin_top_level_index_and_filter", Ignored: true, How: "the top levels of partitioned indexes and filters always stay in table readers, as if it were true"},
	{Key: "row_cache_size", How: "a row cache per DB, not shared between DBs: a ring of rows where a hit on an old row copies it to the front, in place of an LRU list; its index is not charged to the budget (lsm/rowcache.go)"},
	{Key: "total_order_seek", How: "a seek probes prefix filters only under prefix_same_as_start or auto_prefix_mode, so without them every seek is in total order already"},
	// lsm's iterators apply the prefix seek options (lsm/iter_prefix.go).
	{Key: "prefix_same_as_start"},
	{Key: "auto_prefix_mode"},
	{Key: "rate_limiter_bytes_per_sec", How: "limits the table and blob file writes of flushes (high priority) and compactions (low), as RocksDB's GenericRateLimiter; MANIFEST writes pass freely, WAL writes too unless rate_limit_auto_wal_flush"},
	{Key: "rate_limiter_refill_period_us"},
	{Key: "rate_limiter_auto_tuned"},
	{Key: "rate_limit_bg_reads", How: "limits compactions' table reads instead of writes, as RocksDB does; tables read through a mapping (mmap_read, rtable) are not charged"},
	{Key: "rate_limit_user_ops", How: "with rate_limit_bg_reads, charges the table reads of iterators and of Get at user priority, as RocksDB; blob file reads are not charged"},
	{Key: "rate_limit_auto_wal_flush"},
	{Key: "readahead_size", How: "fixes the read-ahead of iterators over block-format tables read with pread; 0 keeps the adaptive window (16 KiB doubling to 256 KiB on sequential reads)"},
	{Key: "compaction_readahead_size", How: "fixes the read-ahead of compaction inputs in the block format read with pread; 0 keeps the adaptive window"},
	{Key: "bytes_per_sync", How: "table and blob files start writeback (sync_file_range) of all but their last MiB every bytes_per_sync bytes, as RocksDB's WritableFileWriter"},
	{Key: "use_direct_reads", How: "block-format tables are read with O_DIRECT through aligned buffers, so the block cache is their only cache; rtable tables (always mapped) and blob files are read as before; refused with mmap_read, and on a file system without O_DIRECT, in RocksDB's words"},
	{Key: "use_direct_io_for_flush_and_compaction", How: "flush and compaction outputs (tables, blob files) are written with O_DIRECT in aligned 1 MiB pieces, the last padded with zeros and the file truncated to its size; WAL and MANIFEST writes are buffered as before; refused with mmap_write, and on a file system without O_DIRECT, in RocksDB's words"},
	{Key: "wal_bytes_per_sync", How: "the WAL, mapped or written, starts writeback (sync_file_range) of all but its last MiB every wal_bytes_per_sync bytes, as RocksDB's WritableFileWriter"},
	{Key: "report_file_operations", How: "counts the native engine's file calls (lsm/fs_counted.go): no Flush() (writes are unbuffered), fsync as Fsync() and fdatasync as Sync(), range syncs not counted, a write to the mapped WAL an append; reads through a mapping (mmap_read, rtable) and of blob files are not counted"},
	// zstd WALs in RocksDB's compressed log format; other types turn WAL
	// compression off with RocksDB's LOG warning (lsm/walcompress.go).
	{Key: "wal_compression"},
	{Key: "num_column_families", How: "column families as RocksDB's: each its own memtables, levels and compactions, one WAL and MANIFEST for all (lsm/family.go); a read-only open loads each family's WAL records into its own memtables and may leave families out, as RocksDB's OpenForReadOnly; the families other than the default answer the stats and level properties from their own figures (the stall counts are the DB's) but not rocksdb.sstables, have no manual compaction, and Flush flushes every family"},
	{Key: "num_hot_column_families"},
	{Key: "use_fsync", How: "table and blob files sync with fsync, else fdatasync; the WAL syncs with fdatasync and the MANIFEST with fsync either way"},
}
