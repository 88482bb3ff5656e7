package rocksfmt

import "testing"

// TestCacheEntryStatsLayout checks the two lines against the ones C++
// db_bench 7.8.3 printed for block_cache_entry_stats after a flush
// (--num=10000 fillrandom,flush): RocksDB's figures put through String
// give RocksDB's text, roles without entries left out.
func TestCacheEntryStatsLayout(t *testing.T) {
	s := CacheEntryStats{
		ID: "LRUCache@0x5654e75066e0#28933", Capacity: 8 << 20, Usage: 88, TableSize: 256, Occupancy: 88,
		Collections: 1, LastCopies: 1, LastSecs: 7.2e-05, SecsSinceLastStart: 0,
		Roles: []CacheRoleCharge{{Role: "DataBlock"}, {Role: "Misc", Count: 1, Bytes: 0}},
	}
	want := "Block cache LRUCache@0x5654e75066e0#28933 capacity: 8.00 MB usage: 0.09 KB table_size: 256 occupancy: 88 collections: 1 last_copies: 1 last_secs: 7.2e-05 secs_since: 0\n" +
		"Block cache entry stats(count,size,portion): Misc(1,0.00 KB,0%)\n"
	if got := s.String(); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	s.Roles = []CacheRoleCharge{{Role: "DataBlock", Count: 354, Bytes: 857088}}
	want = "Block cache LRUCache@0x5654e75066e0#28933 capacity: 8.00 MB usage: 0.09 KB table_size: 256 occupancy: 88 collections: 1 last_copies: 1 last_secs: 7.2e-05 secs_since: 0\n" +
		"Block cache entry stats(count,size,portion): DataBlock(354,837.00 KB,10.2173%)\n"
	if got := s.String(); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
