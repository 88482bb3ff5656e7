package lsm

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/internal/statistics"
)

// TestL0FilterByDefault: with bloom_bits below 0 (the table default),
// lookups consult a filter on each L0 table, and a key an L0 table cannot
// hold is ruled out there without reading a data block; a compaction's
// output below L0 has no filter. With bloom_bits 0 no table has one.
func TestL0FilterByDefault(t *testing.T) {
	const keys = 2000
	for _, bits := range []int{-1, 0} {
		t.Run(fmt.Sprint("bloom_bits=", bits), func(t *testing.T) {
			o := testOptions()
			o.BloomBits = bits
			o.DisableAutoCompactions = true
			o.WriteBufferSize = 64 << 20 // one table per flush
			stats := statistics.New(statistics.ExceptHistogramOrTimers)
			db, err := Open(t.TempDir(), o, Config{Version: "test", Statistics: stats})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			// Two passes over the same keys: two L0 tables, which the
			// compaction below must merge (no trivial move).
			writeTables(t, db, 2, keys)
			lookups := func() (present, absent int) {
				for i := 0; i < keys; i += keys / 100 {
					if _, ok := getString(t, db, fmt.Sprintf("key%06d", i)); !ok {
						t.Fatalf("key%06d not found", i)
					}
					present++
					// Inside both tables' key ranges, in neither.
					if _, ok := getString(t, db, fmt.Sprintf("key%06dx", i)); ok {
						t.Fatalf("key%06dx found", i)
					}
					absent++
				}
				return present, absent
			}
			present, absent := lookups()
			useful := stats.Ticker(statistics.BloomFilterUseful)
			probes := filterProbes(stats)
			if bits < 0 {
				// A present key is found in the newer table; an absent
				// one is ruled out by both tables' filters.
				if want := uint64(present + 2*absent); probes != want {
					t.Errorf("L0 filters consulted %d times, want %d", probes, want)
				}
				// About 1% false positives at 10 bits a key.
				if useful < uint64(2*absent*9/10) {
					t.Errorf("L0 filters ruled out %d of %d absent-key probes", useful, 2*absent)
				}
			} else if probes != 0 {
				t.Errorf("bloom_bits 0: filters consulted %d times", probes)
			}
			if err := db.Compact(nil, nil, -1); err != nil {
				t.Fatal(err)
			}
			if n := len(db.def.current.levels[0]); n != 0 {
				t.Fatalf("%d tables left in L0 after a full compaction", n)
			}
			lookups()
			if got := filterProbes(stats); got != probes {
				t.Errorf("lookups below L0 consulted filters %d times", got-probes)
			}
		})
	}
}
