//go:build rocksdb

package rocksdb

import (
	"regexp"
	"strconv"
	"testing"
)

// TestRowCacheServesRepeatedGets: with --row_cache_size the second Get of
// a flushed key is a row cache hit (rocksdb.row.cache.hit), as in C++
// db_bench; without it there is none.
func TestRowCacheServesRepeatedGets(t *testing.T) {
	for _, size := range []int64{0, 1 << 20} {
		o := testOptions()
		o.RowCacheSize = size
		o.Statistics = true
		db := openWith(t, o)(t.TempDir())
		if err := db.Put([]byte("k"), []byte("v"), nil); err != nil {
			t.Fatal(err)
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			if found, err := db.Get([]byte("k"), func([]byte) {}); !found || err != nil {
				t.Fatalf("get: %v %v", found, err)
			}
		}
		stats, _ := db.Property(StatisticsProperty)
		m := regexp.MustCompile(`rocksdb\.row\.cache\.hit COUNT : (\d+)`).FindStringSubmatch(stats)
		if m == nil {
			t.Fatalf("no row cache ticker in:\n%.400s", stats)
		}
		hits, _ := strconv.Atoi(m[1])
		if (hits > 0) != (size > 0) {
			t.Errorf("row_cache_size %d: %d row cache hits", size, hits)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
