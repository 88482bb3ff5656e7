package lsm

import "os"

// rangeSyncer follows the bytes appended to a file and, every every bytes,
// hands those written up to 1 MiB before the end (4 KiB aligned) to
// writeback with rangeSync (sync_file_range(SYNC_FILE_RANGE_WRITE) on
// Linux), as RocksDB's WritableFileWriter does for bytes_per_sync and
// wal_bytes_per_sync: the last MiB is left alone because it may be
// rewritten soon, and a range sync far from the write offset does not
// slow the writes. The final sync then has little left to write.
type rangeSyncer struct {
	f            *os.File // nil: nothing to do
	every        uint64   // 0: nothing to do
	size, synced uint64   // bytes written; bytes handed to writeback
}

// Bytes RocksDB keeps out of range syncs at the end of a file, and the
// alignment of a range sync's end.
const (
	rangeSyncHoldBack = 1 << 20
	rangeSyncAlign    = 4 << 10
)

// wrote notes n more bytes written and starts writeback when due.
func (r *rangeSyncer) wrote(n int) error {
	r.size += uint64(n)
	if r.every == 0 || r.f == nil || r.size <= rangeSyncHoldBack {
		return nil
	}
	to := r.size - rangeSyncHoldBack
	to -= to % rangeSyncAlign
	if to <= r.synced || to-r.synced < r.every {
		return nil
	}
	if err := rangeSync(r.f, r.synced, to-r.synced); err != nil {
		return err
	}
	r.synced = to
	return nil
}
