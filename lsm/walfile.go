package lsm

import (
	"os"

	"github.com/godbbench/godbbench/internal/ratelimit"
)

// walFile is the WAL under the I/O options that act on its writes:
//
//   - --wal_bytes_per_sync: after each write, its rangeSyncer hands the
//     bytes written up to 1 MiB before the end to writeback every
//     wal_bytes_per_sync bytes, as RocksDB does for its WAL. On the mapped
//     WAL (walmmap_linux.go) sync_file_range writes back the pages the
//     stores dirtied, as it does those of write(2); msync (MS_ASYNC)
//     would do nothing on Linux.
//   - --rate_limit_auto_wal_flush (with --rate_limiter_bytes_per_sec and
//     writes limited): each write first asks the rate limiter for its
//     bytes at User priority, a burst at a time, as RocksDB charges the
//     WAL write that follows a user write.
//
// Without either the WAL is not wrapped.
type walFile struct {
	WritableFile
	ranges  rangeSyncer
	limiter *ratelimit.Limiter // nil: writes are not charged
}

// wrapWAL returns the WAL f, whose file is osf (nil: not an *os.File),
// wrapped for the options above, or f itself when none applies.
func (db *DB) wrapWAL(f WritableFile, osf *os.File) WritableFile {
	w := &walFile{WritableFile: f}
	if db.opts.WALBytesPerSync > 0 && osf != nil {
		w.ranges = rangeSyncer{f: osf, every: db.opts.WALBytesPerSync}
	}
	if db.opts.Read.RateLimitAutoWALFlush && db.io.writesLimited() {
		w.limiter = db.io.limiter
	}
	if w.ranges.every == 0 && w.limiter == nil {
		return f
	}
	return w
}

// Write writes p, a granted burst at a time when charged, and starts
// writeback when due.
func (w *walFile) Write(p []byte) (int, error) {
	written, err := writeGranted(w.WritableFile, p, w.limiter, ratelimit.User)
	if err != nil {
		return written, err
	}
	return written, w.ranges.wrote(written)
}
