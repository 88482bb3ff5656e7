//go:build !linux

package lsm

import "os"

// rangeSync does nothing where sync_file_range is missing, as RocksDB's
// fallback (FSWritableFile::RangeSync) does without
// strict_bytes_per_sync.
func rangeSync(*os.File, uint64, uint64) error { return nil }

// syncFile is fsync on every other system.
func syncFile(f *os.File, _ bool) error { return f.Sync() }
