package lsm

import (
	"io"

	"github.com/godbbench/godbbench/internal/ratelimit"
	"github.com/godbbench/godbbench/internal/statistics"
	"github.com/godbbench/godbbench/options"
)

// fileIO is how the DB does its table and blob file I/O, from db_bench's
// I/O options:
//
//   - --rate_limiter_bytes_per_sec: every write of a flush or compaction
//     output first asks the DB's rate limiter (package ratelimit, RocksDB's
//     GenericRateLimiter) for its bytes, a burst at a time, at High for
//     flushes and Low for compactions; --rate_limiter_refill_period_us and
//     --rate_limiter_auto_tuned shape the limiter. With
//     --rate_limit_bg_reads the limiter limits reads instead (RocksDB's
//     kReadsOnly mode), writes pass freely, and compactions' block reads
//     are charged at Low; with --rate_limit_user_ops too, the block reads
//     of iterators and of Get are charged at User.
//   - --bytes_per_sync: once an output has grown bytes_per_sync past the
//     last range handed to writeback, its bytes up to 1 MiB before the end
//     (4 KiB aligned) are handed to writeback with
//     sync_file_range(SYNC_FILE_RANGE_WRITE), as RocksDB's
//     WritableFileWriter does, so that the final sync has little left
//     (outputfile.go).
//   - --wal_bytes_per_sync: the same range syncs for the WAL, and
//     --rate_limit_auto_wal_flush: WAL writes charged at User (walfile.go).
//   - --use_fsync: an output's Sync is fsync; otherwise fdatasync.
//   - --compaction_readahead_size: compaction inputs read ahead that many
//     bytes from their first read; --readahead_size: the same for
//     iterators. 0 keeps the sst reader's adaptive window (16 KiB doubling
//     to 256 KiB on sequential reads).
type fileIO struct {
	limiter      *ratelimit.Limiter // nil: no rate limiter
	bytesPerSync uint64
	useFsync     bool
	// compactionReads and userReads are the read settings of compaction
	// inputs and of iterators.
	compactionReads, userReads tableReadIO
}

// tableReadIO is how an iterator reads a block-format table: its fixed
// read-ahead (0: adaptive) and the charge of each read (nil: none); see
// sst.Iter.SetReadahead and SetReadCharge.
type tableReadIO struct {
	readahead int
	charge    func(n int)
}

// newFileIO returns the I/O settings of o; a limiter counts the times it
// runs dry in tickers (nil: not counted).
func newFileIO(o *options.Options, tickers *statistics.Statistics) fileIO {
	io := fileIO{bytesPerSync: o.BytesPerSync, useFsync: o.UseFsync}
	io.compactionReads.readahead = o.CompactionReadaheadSize
	io.userReads.readahead = o.Read.ReadaheadSize
	if o.RateLimiterBytesPerSec == 0 {
		return io
	}
	mode := ratelimit.WritesOnly
	if o.RateLimitBgReads {
		mode = ratelimit.ReadsOnly
	}
	l := ratelimit.New(ratelimit.Config{
		BytesPerSec:        int64(min(o.RateLimiterBytesPerSec, 1<<62)),
		RefillPeriodMicros: o.RateLimiterRefillPeriodUs,
		Mode:               mode,
		AutoTuned:          o.RateLimiterAutoTuned,
		OnDrain:            drainCounter(tickers),
		Clock:              rateLimiterClock,
	})
	io.limiter = l
	if l.Limits(ratelimit.Read) {
		io.compactionReads.charge = func(n int) { l.Request(int64(n), ratelimit.Low, ratelimit.Read) }
		if o.Read.RateLimitUserOps {
			io.userReads.charge = func(n int) { l.Request(int64(n), ratelimit.User, ratelimit.Read) }
		}
	}
	return io
}

// rateLimiterClock is the rate limiter's clock, nil for the system's;
// tests set a virtual one, so that no test sleeps.
var rateLimiterClock ratelimit.Clock

// reads returns the read settings of a compaction's inputs or of an
// iterator's tables.
func (io *fileIO) reads(compaction bool) tableReadIO {
	if compaction {
		return io.compactionReads
	}
	return io.userReads
}

// writesLimited reports whether output writes pass through the limiter.
func (io *fileIO) writesLimited() bool {
	return io.limiter != nil && io.limiter.Limits(ratelimit.Write)
}

// RateLimiter returns the DB's rate limiter, nil without
// --rate_limiter_bytes_per_sec.
func (db *DB) RateLimiter() *ratelimit.Limiter { return db.io.limiter }

// writeGranted writes p to w a granted burst at a time, each burst asked
// of l at pri first; with l nil, in one write.
func writeGranted(w io.Writer, p []byte, l *ratelimit.Limiter, pri ratelimit.Priority) (int, error) {
	written := 0
	for len(p) > 0 {
		n := len(p)
		if l != nil {
			n = int(l.RequestToken(int64(n), pri, ratelimit.Write))
		}
		m, err := w.Write(p[:n])
		written += m
		if err != nil {
			return written, err
		}
		p = p[n:]
	}
	return written, nil
}

// drainCounter returns the limiter's OnDrain for tickers:
// rocksdb.number.rate_limiter.drains, as RocksDB counts it; nil without
// statistics.
func drainCounter(tickers *statistics.Statistics) func() {
	if tickers == nil {
		return nil
	}
	return func() { tickers.Add(statistics.RateLimiterDrains, 1) }
}
