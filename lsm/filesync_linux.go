package lsm

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// rangeSync starts writeback of n bytes at off of f without waiting for
// it (sync_file_range(SYNC_FILE_RANGE_WRITE), RocksDB's
// PosixWritableFile::RangeSync), in RocksDB's words on failure.
func rangeSync(f *os.File, off, n uint64) error {
	if err := unix.SyncFileRange(int(f.Fd()), int64(off), int64(n), unix.SYNC_FILE_RANGE_WRITE); err != nil {
		return fmt.Errorf("IO error: While sync_file_range returned -1: %s: %w", f.Name(), err)
	}
	return nil
}

// syncFile is fsync when full is set, else fdatasync.
func syncFile(f *os.File, full bool) error {
	if full {
		return f.Sync()
	}
	if err := unix.Fdatasync(int(f.Fd())); err != nil {
		return fmt.Errorf("IO error: While fdatasync: %s: %w", f.Name(), err)
	}
	return nil
}
