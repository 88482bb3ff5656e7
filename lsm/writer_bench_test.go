package lsm

import (
	"fmt"
	"testing"
)

// BenchmarkWriters writes db_bench fillrandom's records (16-byte keys out of
// a million, 100-byte values, one per batch) from 1, 2 and 8 goroutines,
// b.N writes in all, and reports per write how often the writer queue
// passed to a waiting writer and how the writers woken had waited
// (commit.go, writer_wake.go).
func BenchmarkWriters(b *testing.B) {
	for _, writers := range []int{1, 2, 8} {
		b.Run(fmt.Sprint(writers), func(b *testing.B) {
			db, err := Open(b.TempDir(), benchOptions(), Config{})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			keys := make([][16]byte, writers)
			value := make([]byte, 100)
			b.ReportAllocs()
			b.SetBytes(116)
			b.ResetTimer()
			err = writeFromGoroutines(db, writers, max(b.N/writers, 1), func(batch *Batch, w, i int) WriteOptions {
				x := uint64(w)<<40 | uint64(i)
				x = (x ^ x>>31) * 0x9e3779b97f4a7c15
				batch.Put(benchKey(keys[w][:], (x^x>>29)%1000000), value)
				return WriteOptions{}
			}, nil)
			b.StopTimer()
			if err != nil {
				b.Fatal(err)
			}
			m, err := db.Metrics()
			if err != nil {
				b.Fatal(err)
			}
			w := m.Writes
			per := func(n uint64) float64 { return float64(n) / float64(w.Writes) }
			b.ReportMetric(per(w.CommitGroups), "groups/op")
			b.ReportMetric(per(w.QueuedHandOffs), "queued/op")
			b.ReportMetric(per(w.WakesPolling), "polled/op")
			b.ReportMetric(per(w.WakesParked), "parked/op")
		})
	}
}
