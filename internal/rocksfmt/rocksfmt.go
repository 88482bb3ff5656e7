// Package rocksfmt holds RocksDB's number formatters as its stats text uses
// them, so every engine that prints a rocksdb.stats-style block formats sizes,
// counts and stall times the way tools/benchmark.sh and RocksDB users expect.
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
