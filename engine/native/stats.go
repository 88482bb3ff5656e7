package native

import (
	"strings"
	"sync"

	"github.com/godbbench/godbbench/internal/rocksfmt"
	"github.com/godbbench/godbbench/lsm"
	"github.com/godbbench/godbbench/options"
)

// This file renders "rocksdb.stats" and "rocksdb.cfstats" (the column
// family part alone) of any column family from lsm.Metrics through
// internal/rocksfmt:
//   - a level's row is the compactions into it (L0: the flushes), its
//     files, size and compaction score; the engine keeps no CPU time apart
//     from wall time, so CompMergeCPU(sec) repeats Comp(sec).
//   - the table by priority has the flushes at High and every other
//     compaction at Low.
//   - the DB Stats lines are lsm's write counters and its total stall time.
//
//   - the stall counts are the DB's, the same in every family.
//
// As in RocksDB, each dump starts a new interval: the "Int" row and the
// Interval lines of the next dump of the same family count from it. Each
// family keeps its own baseline (the default's is statsBaseline.cf), the
// DB stats one for all. ResetStats starts them all over.

// statsBaseline is what the previous dump left, guarded by its mutex,
// which guards the baselines of the other families too.
type statsBaseline struct {
	mu sync.Mutex
	cf rocksfmt.ColumnFamilyBaseline
	db rocksfmt.DBStatsBaseline
}

// rocksdbStats renders rocksdb.stats and starts a new interval.
func (db *DB) rocksdbStats() (string, bool) { return db.renderStats(false) }

// renderStats renders the column family stats and the DB stats, the DB
// stats first when dbFirst (RocksDB's DumpStats order), and starts a new
// interval.
func (db *DB) renderStats(dbFirst bool) (string, bool) {
	return db.familyStats(options.ColumnFamilyName(0), db.d.Metrics, &db.statsBaseline.cf, true, dbFirst)
}

// familyStats renders the column family stats of the family named name,
// whose figures metrics returns and whose interval starts at *cf, and,
// withDB, the DB stats, first when dbFirst; it starts new intervals.
func (db *DB) familyStats(name string, metrics func() (lsm.Metrics, error), cf *rocksfmt.ColumnFamilyBaseline, withDB, dbFirst bool) (string, bool) {
	b := &db.statsBaseline
	b.mu.Lock()
	defer b.mu.Unlock()
	m, err := metrics()
	if err != nil {
		return "", false
	}
	st := columnFamilyStats(name, &m)
	var s strings.Builder
	if withDB && dbFirst {
		b.db = rocksfmt.WriteDBStats(&s, m.Uptime, writeCounters(&m), b.db)
	}
	*cf = rocksfmt.WriteColumnFamilyStats(&s, &st, *cf)
	if withDB && !dbFirst {
		b.db = rocksfmt.WriteDBStats(&s, m.Uptime, writeCounters(&m), b.db)
	}
	return s.String(), true
}

// ResetStats clears the cumulative statistics and the interval baseline.
func (db *DB) ResetStats() error {
	b := &db.statsBaseline
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cf, b.db = rocksfmt.ColumnFamilyBaseline{}, rocksfmt.DBStatsBaseline{}
	for i := range db.families.Len() {
		if f := db.families.Get(i); f != nil {
			f.statsBaseline = rocksfmt.ColumnFamilyBaseline{}
		}
	}
	return db.d.ResetStats()
}

// compactionStats converts lsm's figures to a compaction-stats row's.
func compactionStats(c *lsm.CompactionMetrics) rocksfmt.CompactionStats {
	micros := uint64(c.Duration.Microseconds())
	return rocksfmt.CompactionStats{
		Micros:                   micros,
		CPUMicros:                micros,
		Count:                    c.Count,
		BytesReadNonOutputLevels: c.ReadBytes,
		BytesReadOutputLevel:     c.ReadOutputLevelBytes,
		BytesWritten:             c.WrittenBytes,
		BytesMoved:               c.MovedBytes,
		InputRecords:             c.KeysIn,
		DroppedRecords:           c.KeysDropped,
	}
}

// columnFamilyStats gathers the figures of the level tables and the
// summary lines of the family named name.
func columnFamilyStats(name string, m *lsm.Metrics) rocksfmt.ColumnFamilyStats {
	cf := rocksfmt.ColumnFamilyStats{
		Name:       name,
		Uptime:     m.Uptime,
		Levels:     make([]rocksfmt.Level, len(m.Levels)),
		FlushBytes: m.Flushes.WrittenBytes,
		CacheText:  "Block cache " + cacheLine(&m.BlockCache) + "\n",
	}
	var compactions rocksfmt.CompactionStats
	for level := range m.Levels {
		l := &m.Levels[level]
		st := compactionStats(&l.Compactions)
		cf.Levels[level] = rocksfmt.Level{Files: l.Files, FilesCompacting: l.FilesCompacting,
			SizeBytes: l.Size, Score: l.Score, Stats: st}
		compactions.Add(st)
	}
	flushes := compactionStats(&m.Flushes)
	compactions.Subtract(flushes)
	cf.ByPriority[rocksfmt.PriorityHigh] = flushes
	cf.ByPriority[rocksfmt.PriorityLow] = compactions
	cf.Stalls[rocksfmt.StallL0Slowdown] = m.Stalls.L0Slowdowns
	cf.Stalls[rocksfmt.StallL0NumFiles] = m.Stalls.L0Stops
	cf.Stalls[rocksfmt.StallL0SlowdownWithCompaction] = m.Stalls.L0SlowdownsWithCompaction
	cf.Stalls[rocksfmt.StallL0NumFilesWithCompaction] = m.Stalls.L0StopsWithCompaction
	cf.Stalls[rocksfmt.StallMemtableCompaction] = m.Stalls.MemtableStops
	cf.Stalls[rocksfmt.StallMemtableSlowdown] = m.Stalls.MemtableSlowdowns
	return cf
}

// writeCounters gathers the figures of the DB Stats lines.
func writeCounters(m *lsm.Metrics) rocksfmt.WriteCounters {
	w := &m.Writes
	return rocksfmt.WriteCounters{
		Writes:       w.Writes,
		Keys:         w.Keys,
		CommitGroups: w.CommitGroups,
		IngestBytes:  w.Bytes,
		WALWrites:    w.WALWrites,
		WALSyncs:     w.WALSyncs,
		WALBytes:     w.WALBytes,
		StallMicros:  uint64(m.Stalls.Duration.Microseconds()),
	}
}

// cacheLine is the block cache's part of the "Block cache" line.
func cacheLine(c *lsm.CacheMetrics) string {
	if !c.Enabled {
		return "none"
	}
	return "capacity: " + rocksfmt.Bytes(c.Capacity) + " usage: " + rocksfmt.Bytes(c.Usage)
}
