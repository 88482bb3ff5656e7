package lsm

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/internal/statistics"
)

// filterProbes is how many times lookups consulted a table filter.
func filterProbes(s *statistics.Statistics) uint64 {
	return s.Ticker(statistics.BloomFilterUseful) + s.Ticker(statistics.BloomFilterFullPositive)
}

// writeTables writes keys key000000.. in passes, each flushed to L0.
func writeTables(t *testing.T, db *DB, passes, keys int) {
	t.Helper()
	for p := range passes {
		for i := range keys {
			put(t, db, fmt.Sprintf("key%06d", i), fmt.Sprintf("v%d-%d", p, i))
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOptimizeFiltersForHitsSkipsLastLevelFilters: with
// optimize_filters_for_hits, lookups do not consult the filters of the
// last non-empty level, in L0 only that of its oldest table; without the
// option, they do. The bottommost tables here were written with filters
// (the option was off when they were written).
func TestOptimizeFiltersForHitsSkipsLastLevelFilters(t *testing.T) {
	const keys = 2000
	lookup := func(t *testing.T, db *DB, n int) {
		t.Helper()
		for i := range n {
			k := fmt.Sprintf("key%06d", i*(keys/n))
			if _, ok := getString(t, db, k); !ok {
				t.Fatalf("%s not found", k)
			}
		}
	}
	open := func(t *testing.T, dir string, optimize bool) (*DB, *statistics.Statistics) {
		t.Helper()
		o := testOptions()
		o.BloomBits = 10
		o.DisableAutoCompactions = true
		o.OptimizeFiltersForHits = optimize
		o.WriteBufferSize = 64 << 20 // one table per flush
		stats := statistics.New(statistics.ExceptHistogramOrTimers)
		db, err := Open(dir, o, Config{Version: "test", Statistics: stats})
		if err != nil {
			t.Fatal(err)
		}
		return db, stats
	}

	t.Run("sorted level", func(t *testing.T) {
		dir := t.TempDir()
		db, _ := open(t, dir, false)
		writeTables(t, db, 2, keys)
		if err := db.Compact(nil, nil, -1); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		for _, optimize := range []bool{false, true} {
			db, stats := open(t, dir, optimize)
			lookup(t, db, 100)
			got := filterProbes(stats)
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			if optimize && got != 0 {
				t.Errorf("optimize_filters_for_hits: lookups on the last level consulted filters %d times", got)
			}
			if !optimize && got != 100 {
				t.Errorf("without optimize_filters_for_hits: 100 lookups consulted filters %d times", got)
			}
		}
	})

	t.Run("L0", func(t *testing.T) {
		db, stats := open(t, t.TempDir(), true)
		defer db.Close()
		writeTables(t, db, 1, keys)
		lookup(t, db, 100)
		if got := filterProbes(stats); got != 0 {
			t.Errorf("the only L0 table's filter was consulted %d times", got)
		}
		// A second, newer table over the same keys: it is searched first
		// and is not the last of its level, so its filter is consulted
		// (and finds every key there).
		writeTables(t, db, 1, keys)
		lookup(t, db, 100)
		if got := filterProbes(stats); got != 100 {
			t.Errorf("100 lookups consulted the newer L0 table's filter %d times", got)
		}
	})
}
