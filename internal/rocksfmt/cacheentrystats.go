package rocksfmt

import (
	"fmt"
	"strconv"
	"strings"
)

// CacheRoleCharge is what a block cache holds for one of RocksDB's cache
// entry roles: the role's CamelCase name as RocksDB prints it
// ("DataBlock", "FilterBlock", "IndexBlock", "Misc", ...), its entry
// count and its charge in bytes.
type CacheRoleCharge struct {
	Role  string
	Count uint64
	Bytes uint64
}

// CacheEntryStats is one collection of a block cache's entry statistics,
// the figures of RocksDB's "rocksdb.block-cache-entry-stats" property.
type CacheEntryStats struct {
	ID                 string // "<cache name>@<address>#<pid>"
	Capacity, Usage    uint64
	TableSize          uint64
	Occupancy          uint64
	Collections        uint64
	LastCopies         uint64
	LastSecs           float64 // how long the last collection took
	SecsSinceLastStart uint64
	Roles              []CacheRoleCharge // in RocksDB's role order
}

// String is RocksDB 7.8.3's CacheEntryRoleStats::ToString: two lines,
//
//	Block cache <id> capacity: <bytes> usage: <bytes> table_size: <n> occupancy: <n> collections: <n> last_copies: <n> last_secs: <g> secs_since: <n>
//	Block cache entry stats(count,size,portion): <Role>(<count>,<bytes>,<percent>%) ...
//
// with sizes as Bytes prints them, percentages of the capacity and seconds
// as C++ streams print a double, and only roles with entries listed.
func (s *CacheEntryStats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Block cache %s capacity: %s usage: %s table_size: %d occupancy: %d collections: %d last_copies: %d last_secs: %s secs_since: %d\n",
		s.ID, Bytes(s.Capacity), Bytes(s.Usage), s.TableSize, s.Occupancy, s.Collections, s.LastCopies, streamDouble(s.LastSecs), s.SecsSinceLastStart)
	b.WriteString("Block cache entry stats(count,size,portion):")
	for _, r := range s.Roles {
		if r.Count == 0 {
			continue
		}
		fmt.Fprintf(&b, " %s(%d,%s,%s%%)", r.Role, r.Count, Bytes(r.Bytes), streamDouble(100*float64(r.Bytes)/float64(s.Capacity)))
	}
	b.WriteString("\n")
	return b.String()
}

// streamDouble is a double as a C++ ostream writes it by default (%g with
// six significant digits).
func streamDouble(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
