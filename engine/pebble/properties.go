package pebble

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/rocksfmt"
)

// Property returns engine state under RocksDB property names; see the package
// comment for how each maps onto Pebble.
func (d *DB) Property(name string) (string, bool) {
	if d.closed.Load() {
		return "", false
	}
	switch name {
	case engine.StatisticsProperty:
		return d.statisticsBlock()
	case "rocksdb.stats":
		m := d.db.Metrics()
		return m.String() + d.rocksdbStats(m), true
	case "rocksdb.levelstats":
		return d.levelStats(), true
	case "rocksdb.sstables":
		s, err := d.sstables()
		if err != nil {
			return "error: " + err.Error() + "\n", true
		}
		return s, true
	case "rocksdb.block-cache-entry-stats":
		return d.blockCacheEntryStats()
	}
	m := d.db.Metrics()
	bg := d.background(m)
	itoa := func(n int64) (string, bool) { return strconv.FormatInt(n, 10), true }
	switch name {
	case "rocksdb.num-immutable-mem-table":
		return itoa(max(m.MemTable.Count-1, 0))
	case "rocksdb.cur-size-all-mem-tables":
		// Pebble reports the arena bytes reserved by live memtables.
		return itoa(int64(m.MemTable.Size))
	case "rocksdb.size-all-mem-tables":
		// RocksDB adds memtables pinned by readers; Pebble calls them zombies.
		return itoa(int64(m.MemTable.Size + m.MemTable.ZombieSize))
	case "rocksdb.cur-size-active-mem-table":
		// Pebble reports only the total; with several memtables queued the
		// active one is given an equal share.
		if m.MemTable.Count <= 1 {
			return itoa(int64(m.MemTable.Size))
		}
		return itoa(int64(m.MemTable.Size) / m.MemTable.Count)
	case "rocksdb.mem-table-flush-pending":
		return itoa(min(max(bg.flushPending-bg.runningFlushes, 0), 1))
	case "rocksdb.num-running-flushes":
		return itoa(bg.runningFlushes)
	case "rocksdb.compaction-pending":
		return itoa(bg.compactionPending)
	case "rocksdb.num-running-compactions":
		return itoa(bg.runningCompactions)
	case "rocksdb.estimate-pending-compaction-bytes":
		return itoa(int64(m.Compact.EstimatedDebt))
	case "rocksdb.total-sst-files-size", "rocksdb.live-sst-files-size":
		t := m.Total()
		return itoa(t.TablesSize)
	case "rocksdb.block-cache-usage":
		return itoa(m.BlockCache.Size)
	}
	if lvl, ok := strings.CutPrefix(name, "rocksdb.num-files-at-level"); ok {
		l, err := strconv.Atoi(lvl)
		if err != nil || l < 0 || l >= len(m.Levels) {
			return "", false
		}
		return itoa(m.Levels[l].TablesCount)
	}
	return "", false
}

// levelStats renders "rocksdb.levelstats" in RocksDB's layout.
func (d *DB) levelStats() string {
	m := d.db.Metrics()
	levels := make([]rocksfmt.Level, len(m.Levels))
	for l := range m.Levels {
		levels[l] = rocksfmt.Level{Files: int(m.Levels[l].TablesCount), SizeBytes: uint64(m.Levels[l].TablesSize)}
	}
	return rocksfmt.LevelStats(levels)
}

// sstables renders "rocksdb.sstables" in the layout of RocksDB's
// Version::DebugString: per level "--- level N --- version# V ---", then
// " number:size['smallest' seq:S, type:T .. 'largest' seq:S, type:T]" per
// table with user keys in upper-case hex. Pebble has no version number; V is 0.
// Pebble's key kinds use RocksDB's value-type numbers, so T matches.
func (d *DB) sstables() (string, error) {
	levels, err := d.db.SSTables()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for l, tables := range levels {
		fmt.Fprintf(&b, "--- level %d --- version# 0 ---\n", l)
		for _, t := range tables {
			fmt.Fprintf(&b, " %d:%d['%X' seq:%d, type:%d .. '%X' seq:%d, type:%d]\n",
				uint64(t.FileNum), t.Size,
				t.Smallest.UserKey, uint64(t.Smallest.SeqNum()), int(t.Smallest.Kind()),
				t.Largest.UserKey, uint64(t.Largest.SeqNum()), int(t.Largest.Kind()))
		}
	}
	return b.String(), nil
}
