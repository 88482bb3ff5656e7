package lsm

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/internal/statistics"
)

// TestPinL0IndexAndFilter: under cache_index_and_filter_blocks the index
// partitions of a partitioned table go through the block cache, except,
// with pin_l0_filter_and_index_blocks_in_cache, those of a table opened
// while in level 0, which its reader keeps; once compacted into level 1
// the table's are read through the cache again. An L0 table larger than
// 1.5 write buffers is not pinned.
func TestPinL0IndexAndFilter(t *testing.T) {
	for _, pin := range []bool{false, true} {
		o := testOptions()
		o.BloomBits = 10
		o.CacheIndexAndFilterBlocks = true
		o.PinL0FilterAndIndexBlocksInCache = pin
		o.DisableAutoCompactions = true
		o.WriteBufferSize = 64 << 20 // one table per flush
		o.Extra = map[string]string{indexTypeKey: "kTwoLevelIndexSearch", partitionFiltersKey: "true", metadataBlockSizeKey: "1"}
		stats := statistics.New(statistics.ExceptHistogramOrTimers)
		db, err := Open(t.TempDir(), o, Config{Version: "test", Statistics: stats})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3000 {
			put(t, db, fmt.Sprintf("key%06d", i), fmt.Sprintf("value%d", i))
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
		indexReads := func(when string) uint64 {
			before := stats.Ticker(statistics.BlockCacheIndexMiss) + stats.Ticker(statistics.BlockCacheIndexHit)
			for _, k := range []int{0, 1234, 2999} {
				if v, ok := getString(t, db, fmt.Sprintf("key%06d", k)); !ok || v != fmt.Sprintf("value%d", k) {
					t.Fatalf("pin %v, %s: key%06d = %q, %v", pin, when, k, v, ok)
				}
			}
			return stats.Ticker(statistics.BlockCacheIndexMiss) + stats.Ticker(statistics.BlockCacheIndexHit) - before
		}
		if n := indexReads("in L0"); (n == 0) != pin {
			t.Errorf("pin %v: Gets in an L0 table read %d index partitions through the cache", pin, n)
		}
		if err := db.Compact(nil, nil, -1); err != nil {
			t.Fatal(err)
		}
		if n := indexReads("in L1"); n == 0 {
			t.Errorf("pin %v: Gets in an L1 table read no index partition through the cache", pin)
		}
		big := &fileMeta{size: uint64(o.WriteBufferSize)/2*3 + 1}
		big.inL0.Store(true)
		if db.pinsIndexAndFilter(big) {
			t.Errorf("pin %v: an L0 table of more than 1.5 write buffers is pinned", pin)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
