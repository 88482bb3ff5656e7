package lsm

import "testing"

// BenchmarkReadRandomTablesRowCache is BenchmarkReadRandomTables with a
// 64 MiB row cache, which holds all 200,000 rows: after the first read of
// each key, Gets are row cache hits.
func BenchmarkReadRandomTablesRowCache(b *testing.B) {
	o := benchOptions()
	o.RowCacheSize = 64 << 20
	benchmarkReadRandomWith(b, o, true)
}
