package lsm

import (
	"time"

	"github.com/godbbench/godbbench/internal/statistics"
)

// Stall counters, indexes of dbStats.stalls.
const (
	stallL0Slowdown               = iota // delayed by level0_slowdown_writes_trigger
	stallL0NumFiles                      // stopped by level0_stop_writes_trigger
	stallMemtableCompaction              // stopped by max_write_buffer_number
	stallMemtableSlowdown                // delayed one memtable before the stop
	stallL0SlowdownWithCompaction        // stallL0Slowdown while an L0 compaction ran
	stallL0NumFilesWithCompaction        // stallL0NumFiles while an L0 compaction ran
	numStalls
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

// metrics returns s as exported figures.
func (s *levelStats) metrics() CompactionMetrics {
	return CompactionMetrics{
		Count:                s.count,
		Duration:             time.Duration(s.micros) * time.Microsecond,
		ReadBytes:            s.readBytesN,
		ReadOutputLevelBytes: s.readBytesNp1,
		WrittenBytes:         s.writeBytes,
		MovedBytes:           s.movedBytes,
		KeysIn:               s.keyIn,
		KeysDropped:          s.keyDrop,
	}
}

// dbStats is guarded by DB.mu.
type dbStats struct {
	start              time.Time
	writes             WriteMetrics
	stallMicros        uint64 // cumulative time writers stalled
	stalls             [numStalls]uint64
	stallCounted       [numStalls]bool // counted since the last publication (stallcount.go)
	runningFlushes     int
	runningCompactions int
	// tickers are RocksDB's statistics (statistics.go), kept by init: they
	// cover the DB's life.
	tickers *statistics.Statistics
	// leaderWakes count the wakes of writers the writer queue passed to
	// (writer_wake.go).
	leaderWakes wakeCounts
}

func (s *dbStats) init() {
	*s = dbStats{tickers: s.tickers}
	s.start = time.Now()
}

// recordGroup counts one commit group of n writes carrying keys keys and
// bytes bytes.
func (s *dbStats) recordGroup(n, keys, bytes int, logged, synced bool) {
	w := &s.writes
	w.Writes += uint64(n)
	w.Keys += uint64(keys)
	w.CommitGroups++
	w.Bytes += uint64(bytes)
	if logged {
		w.WALWrites += uint64(n)
		w.WALBytes += uint64(bytes)
	}
	if synced {
		w.WALSyncs++
	}
}

// recordFlush counts a flush of family f that wrote bytes in d.
func (s *dbStats) recordFlush(f *family, bytes uint64, d time.Duration) {
	s.countFlush(bytes, d)
	for _, st := range []*levelStats{&f.work.levels[0], &f.work.flushes} {
		st.writeBytes += bytes
		st.micros += uint64(d.Microseconds())
		st.count++
	}
}

// ResetStats clears the cumulative statistics (db_bench resetstats); the
// running flush and compaction counts stay.
func (db *DB) ResetStats() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	rf, rc := db.mu.stats.runningFlushes, db.mu.stats.runningCompactions
	db.mu.stats.init()
	db.resetWakes()
	for _, f := range db.allFamilies() {
		f.work = newFamilyWork(db.numLevels)
	}
	db.mu.stats.runningFlushes, db.mu.stats.runningCompactions = rf, rc
	return nil
}
