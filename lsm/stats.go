package lsm

import (
	"fmt"
	"strings"
	"time"

	"github.com/godbbench/godbbench/internal/rocksfmt"
)

// Stall counters, indexes of dbStats.stalls in the order of RocksDB's
// "Stalls(count):" line.
const (
	stallL0Slowdown         = rocksfmt.StallL0Slowdown
	stallL0NumFiles         = rocksfmt.StallL0NumFiles
	stallMemtableCompaction = rocksfmt.StallMemtableCompaction
	stallMemtableSlowdown   = rocksfmt.StallMemtableSlowdown
	numStalls               = rocksfmt.NumStalls
)

// levelStats are the cumulative compaction statistics of one output level
// (level 0 counts flushes), the columns of RocksDB's compaction-stats table.
type levelStats struct {
	readBytesN, readBytesNp1 uint64
	writeBytes               uint64
	movedBytes               uint64
	micros                   uint64
	count                    uint64
	keyIn, keyDrop           uint64
}

// mib is a MiB as RocksDB's kMB, for the Size(MB) of rocksdb.levelstats.
const mib = float64(1 << 20)

// compactionStats converts s to the figures of a compaction-stats row. The
// engine does not measure CPU time apart from wall time; it prints the wall
// time in both columns.
func (s *levelStats) compactionStats() rocksfmt.CompactionStats {
	return rocksfmt.CompactionStats{
		Micros:                   s.micros,
		CPUMicros:                s.micros,
		Count:                    s.count,
		BytesReadNonOutputLevels: s.readBytesN,
		BytesReadOutputLevel:     s.readBytesNp1,
		BytesWritten:             s.writeBytes,
		BytesMoved:               s.movedBytes,
		InputRecords:             s.keyIn,
		DroppedRecords:           s.keyDrop,
	}
}

// dbStats is guarded by DB.mu.
type dbStats struct {
	start              time.Time
	writes             rocksfmt.WriteCounters // cumulative, but for StallMicros
	stallMicros        uint64                 // cumulative time writers stalled
	stalls             [numStalls]uint64
	levels             []levelStats // compactions by output level, flushes in level 0
	flushes            levelStats   // the flushes alone
	runningFlushes     int
	runningCompactions int
	// What the previous rocksdb.stats call left, for the interval figures.
	lastCF rocksfmt.ColumnFamilyBaseline
	lastDB rocksfmt.DBStatsBaseline
}

func (s *dbStats) init(numLevels int) {
	*s = dbStats{levels: make([]levelStats, numLevels)}
	s.start = time.Now()
}

// recordGroup counts one commit group of n writes carrying keys keys and
// bytes bytes.
func (s *dbStats) recordGroup(n, keys, bytes int, logged, synced bool) {
	w := &s.writes
	w.Writes += uint64(n)
	w.Keys += uint64(keys)
	w.CommitGroups++
	w.IngestBytes += uint64(bytes)
	if logged {
		w.WALWrites += uint64(n)
		w.WALBytes += uint64(bytes)
	}
	if synced {
		w.WALSyncs++
	}
}

func (s *dbStats) recordFlush(bytes uint64, d time.Duration) {
	for _, st := range []*levelStats{&s.levels[0], &s.flushes} {
		st.writeBytes += bytes
		st.micros += uint64(d.Microseconds())
		st.count++
	}
}

// ResetStats clears the cumulative statistics (db_bench resetstats).
func (db *DB) ResetStats() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	rf, rc := db.stats.runningFlushes, db.stats.runningCompactions
	db.stats.init(db.numLevels)
	db.stats.runningFlushes, db.stats.runningCompactions = rf, rc
	return nil
}

// statsText renders rocksdb.stats (DB.mu held) and advances the interval
// baseline, as RocksDB does on each call.
func (db *DB) statsText() string {
	s := &db.stats
	v := db.vs.current
	uptime := time.Since(s.start)
	scores := db.levelScores(v)
	cf := rocksfmt.ColumnFamilyStats{
		Name:       "default",
		Uptime:     uptime,
		Levels:     make([]rocksfmt.Level, db.numLevels),
		FlushBytes: s.flushes.writeBytes,
		Stalls:     s.stalls,
		CacheText:  "Block cache " + db.cacheLine() + "\n",
	}
	var compactions rocksfmt.CompactionStats
	for level := range db.numLevels {
		files := v.levels[level]
		compacting := 0
		for _, f := range files {
			if f.compacting {
				compacting++
			}
		}
		st := s.levels[level].compactionStats()
		cf.Levels[level] = rocksfmt.Level{Files: len(files), FilesCompacting: compacting,
			SizeBytes: levelBytes(files), Score: scores[level], Stats: st}
		compactions.Add(st)
	}
	flushes := s.flushes.compactionStats()
	compactions.Subtract(flushes)
	cf.ByPriority[rocksfmt.PriorityHigh] = flushes
	cf.ByPriority[rocksfmt.PriorityLow] = compactions

	s.writes.StallMicros = s.stallMicros

	var b strings.Builder
	s.lastCF = rocksfmt.WriteColumnFamilyStats(&b, &cf, s.lastCF)
	s.lastDB = rocksfmt.WriteDBStats(&b, uptime, s.writes, s.lastDB)
	return b.String()
}

func (db *DB) cacheLine() string {
	if db.cache == nil {
		return "none"
	}
	return fmt.Sprintf("capacity: %s usage: %s", rocksfmt.Bytes(uint64(db.cache.Capacity())), rocksfmt.Bytes(uint64(db.cache.Usage())))
}
