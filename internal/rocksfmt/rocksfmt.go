// Package rocksfmt writes RocksDB's statistics text, so that every engine
// that prints a "rocksdb.stats" block prints RocksDB 7.8.3's layout byte for
// byte and tools/benchmark.sh and users' scripts, which read it with awk field
// numbers, work unchanged on any engine.
//
// It holds RocksDB's number formatters (Bytes, Count, HMS) and the writers of
// the two parts of "rocksdb.stats" (db/internal_stats.cc): the per-column-
// family part (WriteColumnFamilyStats: the compaction-stats tables, the
// Blob, Uptime, Flush, AddFile, compaction and Stalls lines) and the DB part
// (WriteDBStats: writes, WAL and stall lines). An engine fills in the
// cumulative figures it keeps, leaves the others 0, and keeps the baseline
// each writer returns for the next call's interval figures, as RocksDB keeps
// its stats snapshots.
package rocksfmt

import (
	"fmt"
	"time"
)

// Bytes is RocksDB's BytesToHumanString: always at least KB, two decimals,
// e.g. "0.00 KB", "1.23 MB", up to TB.
func Bytes(n uint64) string {
	units := [...]string{"KB", "MB", "GB", "TB"}
	v := float64(n) / 1024
	i := 0
	for i < len(units)-1 && v >= 1024 {
		v /= 1024
		i++
	}
	return fmt.Sprintf("%.2f %s", v, units[i])
}

// Count is RocksDB's NumberToHumanString: plain below 10000, then truncated
// thousands (K), millions (M) or billions (G).
func Count(n int64) string {
	a := n
	if a < 0 {
		a = -a
	}
	switch {
	case a < 10000:
		return fmt.Sprintf("%d", n)
	case a < 10000000:
		return fmt.Sprintf("%dK", n/1000)
	case a < 10000000000:
		return fmt.Sprintf("%dM", n/1000000)
	}
	return fmt.Sprintf("%dG", n/1000000000)
}

// HMS formats a stall time as RocksDB's "H:M:S" field, e.g. "00:00:0.000".
func HMS(d time.Duration) string {
	s := d.Seconds()
	h := int64(s) / 3600
	m := (int64(s) % 3600) / 60
	sec := s - float64(h*3600+m*60)
	return fmt.Sprintf("%02d:%02d:%05.3f", h, m, sec)
}
