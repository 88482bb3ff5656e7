package lsm

import (
	"time"

	"github.com/godbbench/godbbench/internal/statistics"
)

// This file counts the DB's work in RocksDB's tickers and histograms
// (package statistics) when Config.Statistics records anything. The
// hooks are called from the read, write, flush and compaction paths; each
// is a nil check small enough to be inlined, so that statistics off cost
// that check alone, and counts in a function of its own. Writes are counted per
// commit group, as RocksDB's write path counts them; reads per lookup.
// The engine above counts what it sees of each call (keys read, timings).

// countMemtableLookup counts a point lookup answered by the memtables
// (hit), or one that went on to the tables (miss).
func (db *DB) countMemtableLookup(hit bool) {
	if s := db.tickers; s != nil {
		countMemtableLookup(s, hit)
	}
}

func countMemtableLookup(s *statistics.Statistics, hit bool) {
	if hit {
		s.Add(statistics.MemtableHit, 1)
	} else {
		s.Add(statistics.MemtableMiss, 1)
	}
}

// countLevelHit counts a point lookup answered by a table of level.
func (db *DB) countLevelHit(level int, found bool) {
	if s := db.tickers; s != nil {
		countLevelHit(s, level, found)
	}
}

func countLevelHit(s *statistics.Statistics, level int, found bool) {
	switch {
	case !found:
	case level == 0:
		s.Add(statistics.GetHitL0, 1)
	case level == 1:
		s.Add(statistics.GetHitL1, 1)
	default:
		s.Add(statistics.GetHitL2AndUp, 1)
	}
}

// countGroup counts a commit group of n writes carrying keys keys and
// bytes bytes: RocksDB's write-path tickers, the leader's write done by
// itself and the others' by it.
func (s *dbStats) countGroup(n, keys, bytes int, logged, synced bool) {
	if t := s.tickers; t != nil {
		countGroup(t, n, keys, bytes, logged, synced)
	}
}

func countGroup(t *statistics.Statistics, n, keys, bytes int, logged, synced bool) {
	t.Add(statistics.KeysWritten, uint64(keys))
	t.Add(statistics.BytesWritten, uint64(bytes))
	t.Record(statistics.BytesPerWrite, uint64(bytes))
	t.Add(statistics.WriteDoneBySelf, 1)
	t.Add(statistics.WriteDoneByOther, uint64(n-1))
	if logged {
		t.Add(statistics.WriteWithWAL, uint64(n))
		t.Add(statistics.WALBytes, uint64(bytes))
	}
	if synced {
		t.Add(statistics.WALSynced, 1)
	}
}

// countFlush counts a flush that wrote bytes in d.
func (s *dbStats) countFlush(bytes uint64, d time.Duration) {
	s.tickers.Add(statistics.FlushWriteBytes, bytes)
	s.tickers.Record(statistics.FlushMicros, uint64(d.Microseconds()))
}

// countCompaction counts a compaction that read read bytes and wrote
// written bytes in d.
func (s *dbStats) countCompaction(read, written uint64, d time.Duration) {
	s.tickers.Add(statistics.CompactReadBytes, read)
	s.tickers.Add(statistics.CompactWriteBytes, written)
	s.tickers.Record(statistics.CompactionMicros, uint64(d.Microseconds()))
}

// recordStall adds d to the time writers were stalled.
func (s *dbStats) recordStall(d time.Duration) {
	s.stallMicros += uint64(d.Microseconds())
	s.tickers.Add(statistics.StallMicros, uint64(d.Microseconds()))
}
