package lsm

import "os"

// walRangeSyncFile is the WAL under --wal_bytes_per_sync: after each
// write, its rangeSyncer hands the bytes written up to 1 MiB before the
// end to writeback every wal_bytes_per_sync bytes, as RocksDB does for its
// WAL. On the mapped WAL (walmmap_linux.go) sync_file_range writes back
// the pages the stores dirtied, as it does those of write(2); msync
// (MS_ASYNC) would do nothing on Linux.
type walRangeSyncFile struct {
	WritableFile
	ranges rangeSyncer
}

// withWALRangeSyncs returns the WAL f, whose file is osf (nil: not an
// *os.File), wrapped for --wal_bytes_per_sync, or f itself without it.
func (db *DB) withWALRangeSyncs(f WritableFile, osf *os.File) WritableFile {
	if db.opts.WALBytesPerSync == 0 || osf == nil {
		return f
	}
	return &walRangeSyncFile{WritableFile: f, ranges: rangeSyncer{f: osf, every: db.opts.WALBytesPerSync}}
}

// Write writes p and starts writeback when due.
func (w *walRangeSyncFile) Write(p []byte) (int, error) {
	n, err := w.WritableFile.Write(p)
	if err != nil {
		return n, err
	}
	return n, w.ranges.wrote(n)
}
