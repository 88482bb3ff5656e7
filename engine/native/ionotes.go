package native

import "github.com/godbbench/godbbench/engine"

// ioNotes are the native engine's notes on db_bench's I/O options, which
// package lsm applies (lsm/fileio.go). They replace the shared notes of
// engine.RateLimiterAndRowCacheNotes and engine.ReadOptionNotes for the
// same keys; a note without How drops the key's shared note: the option
// is applied as RocksDB applies it.
var ioNotes = []engine.OptionNote{
	{Key: "rate_limiter_bytes_per_sec", How: "limits the table and blob file writes of flushes (high priority) and compactions (low), as RocksDB's GenericRateLimiter; MANIFEST writes pass freely, WAL writes too unless rate_limit_auto_wal_flush"},
	{Key: "rate_limiter_refill_period_us"},
	{Key: "rate_limiter_auto_tuned"},
	{Key: "rate_limit_bg_reads", How: "limits compactions' table reads instead of writes, as RocksDB does; tables read through a mapping (mmap_read, rtable) are not charged"},
	{Key: "rate_limit_user_ops", How: "with rate_limit_bg_reads, charges iterators' table reads at user priority; Get's reads are not charged"},
	{Key: "rate_limit_auto_wal_flush"},
	{Key: "readahead_size", How: "fixes the read-ahead of iterators over block-format tables read with pread; 0 keeps the adaptive window (16 KiB doubling to 256 KiB on sequential reads)"},
	{Key: "compaction_readahead_size", How: "fixes the read-ahead of compaction inputs in the block format read with pread; 0 keeps the adaptive window"},
	{Key: "bytes_per_sync", How: "table and blob files start writeback (sync_file_range) of all but their last MiB every bytes_per_sync bytes, as RocksDB's WritableFileWriter"},
	{Key: "use_direct_reads", How: "block-format tables are read with O_DIRECT through aligned buffers, so the block cache is their only cache; rtable tables (always mapped) and blob files are read as before; refused with mmap_read, and on a file system without O_DIRECT, in RocksDB's words"},
	{Key: "use_direct_io_for_flush_and_compaction", How: "flush and compaction outputs (tables, blob files) are written with O_DIRECT in aligned 1 MiB pieces, the last padded with zeros and the file truncated to its size; WAL and MANIFEST writes are buffered as before; refused with mmap_write, and on a file system without O_DIRECT, in RocksDB's words"},
	{Key: "wal_bytes_per_sync", How: "the WAL, mapped or written, starts writeback (sync_file_range) of all but its last MiB every wal_bytes_per_sync bytes, as RocksDB's WritableFileWriter"},
	{Key: "use_fsync", How: "table and blob files sync with fsync, else fdatasync; the WAL syncs with fdatasync and the MANIFEST with fsync either way"},
}

// withIONotes returns notes with each of ioNotes' keys replaced by its
// ioNotes entry, or dropped where that has no How, and the ioNotes with
// How whose keys notes lack appended; the other notes keep their order.
func withIONotes(notes []engine.OptionNote) []engine.OptionNote {
	out := make([]engine.OptionNote, 0, len(notes)+len(ioNotes))
	seen := make([]bool, len(ioNotes))
	for _, n := range notes {
		if i := ioNoteIndex(n.Key); i >= 0 {
			seen[i] = true
			if ioNotes[i].How != "" {
				out = append(out, ioNotes[i])
			}
			continue
		}
		out = append(out, n)
	}
	for i, n := range ioNotes {
		if !seen[i] && n.How != "" {
			out = append(out, n)
		}
	}
	return out
}

func ioNoteIndex(key string) int {
	for i, n := range ioNotes {
		if n.Key == key {
			return i
		}
	}
	return -1
}
