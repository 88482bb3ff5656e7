package native

import (
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// TestRowCacheSizeApplied: with --row_cache_size, Gets of a flushed key
// after the first are row cache hits in the STATISTICS block; without
// it every lookup goes to the table and the tickers stay at zero.
func TestRowCacheSizeApplied(t *testing.T) {
	for size, want := range map[int64]string{
		0:       "rocksdb.row.cache.hit COUNT : 0\nrocksdb.row.cache.miss COUNT : 0\n",
		1 << 20: "rocksdb.row.cache.hit COUNT : 2\nrocksdb.row.cache.miss COUNT : 1\n",
	} {
		db := openWith(t, func(o *options.Options) { o.Statistics, o.RowCacheSize = true, size })(t.TempDir())
		if err := db.Put([]byte("k"), []byte("v"), nil); err != nil {
			t.Fatal(err)
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if found, err := db.Get([]byte("k"), func([]byte) {}); !found || err != nil {
				t.Fatalf("get: %v %v", found, err)
			}
		}
		block, _ := db.Property(engine.StatisticsProperty)
		db.Close()
		var got strings.Builder
		for _, line := range strings.SplitAfter(block, "\n") {
			if strings.HasPrefix(line, "rocksdb.row.cache.") {
				got.WriteString(line)
			}
		}
		if got.String() != want {
			t.Errorf("row_cache_size %d: tickers\n%s want\n%s", size, got.String(), want)
		}
	}
}
