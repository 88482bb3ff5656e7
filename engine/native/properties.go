package native

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/rocksfmt"
	"github.com/godbbench/godbbench/lsm"
	"github.com/godbbench/godbbench/options"
)

// Property returns a RocksDB-named property, formatted from lsm.Metrics
// (and lsm.DB.Tables for rocksdb.sstables) the way RocksDB 7.8.3 prints it.
// A closed DB, an unknown name or a level out of range gives false.
func (db *DB) Property(name string) (string, bool) {
	switch name {
	case "rocksdb.stats":
		return db.rocksdbStats()
	case "rocksdb.cfstats":
		return db.familyStats(options.ColumnFamilyName(0), db.d.Metrics, &db.statsBaseline.cf, false, false)
	case "rocksdb.sstables":
		return db.sstables()
	case "rocksdb.block-cache-entry-stats":
		return db.blockCacheEntryStats()
	case engine.StatisticsProperty:
		return db.statisticsBlock()
	}
	m, err := db.d.Metrics()
	if err != nil {
		return "", false
	}
	return metricProperty(name, &m)
}

// metricProperty returns the property name of a column family whose
// figures are m, or false for a name m does not answer.
func metricProperty(name string, m *lsm.Metrics) (string, bool) {
	u := func(n uint64) (string, bool) { return strconv.FormatUint(n, 10), true }
	b2u := func(c bool) (string, bool) {
		if c {
			return "1", true
		}
		return "0", true
	}
	switch name {
	case "rocksdb.levelstats":
		return levelStats(m), true
	case "rocksdb.num-immutable-mem-table":
		return u(uint64(m.ImmutableMemtables.Count))
	case "rocksdb.num-immutable-mem-table-flushed":
		return u(0)
	case "rocksdb.cur-size-active-mem-table":
		return u(m.ActiveMemtable.Size)
	case "rocksdb.cur-size-all-mem-tables", "rocksdb.size-all-mem-tables":
		return u(m.ActiveMemtable.Size + m.ImmutableMemtables.Size)
	case "rocksdb.num-entries-active-mem-table":
		return u(m.ActiveMemtable.Entries)
	case "rocksdb.num-entries-imm-mem-tables":
		return u(m.ImmutableMemtables.Entries)
	case "rocksdb.mem-table-flush-pending":
		return b2u(m.FlushPending)
	case "rocksdb.num-running-flushes":
		return u(uint64(m.RunningFlushes))
	case "rocksdb.compaction-pending":
		return b2u(m.CompactionPending)
	case "rocksdb.num-running-compactions":
		return u(uint64(m.RunningCompactions))
	case "rocksdb.background-errors":
		return b2u(m.BackgroundError)
	case "rocksdb.estimate-num-keys":
		n := m.ActiveMemtable.Entries + m.ImmutableMemtables.Entries
		for i := range m.Levels {
			n += m.Levels[i].EstimatedKeys
		}
		return u(n)
	case "rocksdb.total-sst-files-size", "rocksdb.live-sst-files-size":
		var n uint64
		for i := range m.Levels {
			n += m.Levels[i].Size
		}
		return u(n)
	case "rocksdb.block-cache-capacity":
		return u(m.BlockCache.Capacity)
	case "rocksdb.block-cache-usage":
		return u(m.BlockCache.Usage)
	case "rocksdb.base-level":
		return u(1)
	}
	if rest, ok := strings.CutPrefix(name, "rocksdb.num-files-at-level"); ok {
		level, err := strconv.Atoi(rest)
		if err != nil || level < 0 || level >= len(m.Levels) {
			return "", false
		}
		return u(uint64(m.Levels[level].Files))
	}
	return "", false
}

// levelStats renders rocksdb.levelstats.
func levelStats(m *lsm.Metrics) string {
	levels := make([]rocksfmt.Level, len(m.Levels))
	for i := range m.Levels {
		levels[i] = rocksfmt.Level{Files: m.Levels[i].Files, SizeBytes: m.Levels[i].Size}
	}
	return rocksfmt.LevelStats(levels)
}

// sstables renders rocksdb.sstables in the layout of RocksDB's
// Version::DebugString: per level "--- level N --- version# V ---", then
// " number:size[smallest_seq .. largest_seq]['smallest' seq:S, type:1 ..
// 'largest' seq:S, type:1]" per table, user keys in upper-case hex.
func (db *DB) sstables() (string, bool) {
	version, levels, err := db.d.Tables()
	if err != nil {
		return "", false
	}
	var b strings.Builder
	for level, tables := range levels {
		fmt.Fprintf(&b, "--- level %d --- version# %d ---\n", level, version)
		for _, t := range tables {
			fmt.Fprintf(&b, " %d:%d[%d .. %d]['%X' seq:%d, type:1 .. '%X' seq:%d, type:1]\n",
				t.Num, t.Size, t.SmallestSeq, t.LargestSeq, t.Smallest, t.SmallestSeq, t.Largest, t.LargestSeq)
		}
	}
	return b.String(), true
}
