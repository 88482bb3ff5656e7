package pebble

import (
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/statistics"
)

// This file is the pebble engine's side of RocksDB's statistics
// (--statistics, --stats_level): honest counts only, zero for what
// neither Pebble nor this wrapper sees.
//   - The wrapper counts its calls: Gets (engine.CountedGet), iterator
//     steps (engine.CountedIter), write times, and per write the keys,
//     the bytes (the key's and value's for a single write, the batch's
//     for a batch: Pebble's own encoding, not RocksDB's), one write with
//     the WAL when the WAL is on, and one WAL sync per synced write.
//   - Pebble's Metrics give, when the block is read: block cache hits and
//     misses (all block kinds together: Pebble's metrics do not split
//     data, index and filter), the filter's useful checks
//     (rocksdb.bloom.filter.useful) and those it let through
//     (rocksdb.bloom.filter.full.positive), compaction bytes read and
//     written, flush bytes written, WAL bytes written, and the stall time
//     its event listener reported.
// Memtable hits, per-level hits and write grouping are Pebble's inside
// and print as zero.

// SharingStatistics returns an Opener whose databases count in one
// statistics object (engine.StatisticsSharer).
func (Opener) SharingStatistics() engine.Opener {
	return Opener{shared: new(statistics.Shared)}
}

// uncountedGets is a DB whose Get is the plain one, for engine.CountedGet.
type uncountedGets DB

func (u *uncountedGets) Get(key []byte, fn func(value []byte)) (bool, error) {
	return (*DB)(u).get(key, fn)
}

// countedGet is Get counted in the statistics.
func (d *DB) countedGet(key []byte, fn func(value []byte)) (bool, error) {
	return engine.CountedGet(d.rec, (*uncountedGets)(d), key, fn)
}

// countWriteStats counts a write of keys keys and bytes bytes that began
// at start (statistics.Start).
func (d *DB) countWriteStats(keys, bytes int64, durable bool, start time.Time) {
	s := d.rec
	s.Add(statistics.KeysWritten, uint64(keys))
	s.Add(statistics.BytesWritten, uint64(bytes))
	s.Record(statistics.BytesPerWrite, uint64(bytes))
	if !d.disableWAL {
		s.Add(statistics.WriteWithWAL, 1)
	}
	if durable {
		s.Add(statistics.WALSynced, 1)
	}
	s.Since(statistics.DBWriteMicros, start)
}

// statisticsBlock is Property(engine.StatisticsProperty), with the
// metrics of Pebble of every database counting in the statistics copied
// in.
func (d *DB) statisticsBlock() (string, bool) {
	if d.stats == nil {
		return "", false
	}
	return d.stats.String(), true
}

// setMetricCounts copies the counts Pebble's metrics hold into the
// database's share of the statistics (statistics.Source).
func (d *DB) setMetricCounts(k *statistics.Source) {
	m := d.db.Metrics()
	k.Set(statistics.BlockCacheHit, uint64(m.BlockCache.Hits))
	k.Set(statistics.BlockCacheMiss, uint64(m.BlockCache.Misses))
	k.Set(statistics.BloomFilterUseful, uint64(m.Filter.Hits))
	k.Set(statistics.BloomFilterFullPositive, uint64(m.Filter.Misses))
	k.Set(statistics.CompactReadBytes, levelSum(m, func(l *pebble.LevelMetrics) uint64 { return l.TableBytesRead }))
	k.Set(statistics.CompactWriteBytes, levelSum(m, func(l *pebble.LevelMetrics) uint64 { return l.TableBytesCompacted }))
	k.Set(statistics.FlushWriteBytes, levelSum(m, func(l *pebble.LevelMetrics) uint64 { return l.TableBytesFlushed }))
	k.Set(statistics.WALBytes, m.WAL.BytesWritten)
	k.Set(statistics.StallMicros, uint64(d.stalls.snapshot().total.Microseconds()))
}

// levelSum sums f over m's levels.
func levelSum(m *pebble.Metrics, f func(*pebble.LevelMetrics) uint64) uint64 {
	var sum uint64
	for i := range m.Levels {
		sum += f(&m.Levels[i])
	}
	return sum
}
