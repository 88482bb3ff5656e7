package pebble

import (
	"strings"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/godbbench/godbbench/internal/rocksfmt"
)

// This file gathers the figures of the RocksDB-layout part of
// "rocksdb.stats"; internal/rocksfmt writes them in RocksDB 7.8.3's layout.
// The figures come from Pebble's metrics where Pebble keeps them and from
// this package's write and stall counters otherwise:
//   - a level's row is Pebble's LevelMetrics: Rn is what came in from the
//     levels above (TableBytesIn), Rnp1 the rest of what compactions into the
//     level read (TableBytesRead less TableBytesIn); L0 reads nothing but
//     what intra-L0 compactions read, as flushes read no table.
//   - L0's time and count are the flushes'; compaction time and count are
//     kept by Pebble only in total, so they count in Sum, Int and the
//     compaction lines but on no level row, whose MB/s columns stay 0.
//   - CPU time, key in/drop counts, and commit groups are not kept: the first
//     two print 0, commit groups print equal to writes (one write per group).

// statsSnapshot is the baseline the next "Interval" figures subtract.
type statsSnapshot struct {
	at time.Time
	cf rocksfmt.ColumnFamilyBaseline
	db rocksfmt.DBStatsBaseline
}

// snapshot returns the baseline a dump of m now would leave.
func (d *DB) snapshot(m *pebble.Metrics) statsSnapshot {
	at := time.Now()
	cf := d.columnFamilyStats(m, at)
	return statsSnapshot{at: at, cf: cf.Baseline(),
		db: rocksfmt.DBStatsBaseline{Uptime: cf.Uptime, WriteCounters: d.writeCounters(m)}}
}

// rocksdbStats renders the RocksDB-layout block and starts a new interval.
func (d *DB) rocksdbStats(m *pebble.Metrics) string {
	d.statsMu.Lock()
	defer d.statsMu.Unlock()
	at := time.Now()
	prev := d.lastStats
	prev.cf.Uptime = prev.at.Sub(d.opened)
	prev.db.Uptime = prev.cf.Uptime
	cf := d.columnFamilyStats(m, at)
	var b strings.Builder
	next := statsSnapshot{at: at}
	next.cf = rocksfmt.WriteColumnFamilyStats(&b, &cf, prev.cf)
	next.db = rocksfmt.WriteDBStats(&b, cf.Uptime, d.writeCounters(m), prev.db)
	d.lastStats = next
	return b.String()
}

// columnFamilyStats gathers the cumulative figures of the level table and
// the summary lines from m and the stall counters.
func (d *DB) columnFamilyStats(m *pebble.Metrics, at time.Time) rocksfmt.ColumnFamilyStats {
	cf := rocksfmt.ColumnFamilyStats{
		Name:   "default",
		Uptime: at.Sub(d.opened),
		Levels: make([]rocksfmt.Level, len(m.Levels)),
		Blob: rocksfmt.BlobFiles{
			Count:       int(m.BlobFiles.LiveCount),
			TotalSize:   m.BlobFiles.LiveSize,
			GarbageSize: m.BlobFiles.LiveSize - min(m.BlobFiles.ReferencedValueSize, m.BlobFiles.LiveSize),
			SpaceAmp:    spaceAmp(m.BlobFiles.LiveSize, m.BlobFiles.ReferencedValueSize),
		},
		Unattributed: rocksfmt.CompactionStats{
			Micros: uint64(m.Compact.Duration.Microseconds()),
			Count:  uint64(m.Compact.Count),
		},
	}
	var all rocksfmt.CompactionStats
	for l := range m.Levels {
		lm := &m.Levels[l]
		st := rocksfmt.CompactionStats{
			BytesReadNonOutputLevels: lm.TableBytesIn,
			BytesReadOutputLevel:     lm.TableBytesRead - min(lm.TableBytesRead, lm.TableBytesIn),
			BytesReadBlob:            lm.BlobBytesReadEstimate,
			BytesWritten:             lm.TableBytesFlushed + lm.TableBytesCompacted,
			BytesWrittenBlob:         lm.BlobBytesFlushed + lm.BlobBytesCompacted,
			BytesMoved:               lm.TableBytesMoved,
		}
		if l == 0 {
			// TableBytesIn of L0 is what the WAL took in, not a read.
			st.BytesReadNonOutputLevels = 0
			st.BytesReadOutputLevel = lm.TableBytesRead
			st.Micros = uint64(m.Flush.WriteThroughput.WorkDuration.Microseconds())
			st.Count = uint64(m.Flush.Count)
		}
		cf.FlushBytes += lm.TableBytesFlushed + lm.BlobBytesFlushed
		cf.Levels[l] = rocksfmt.Level{Files: int(lm.TablesCount), SizeBytes: uint64(lm.TablesSize), Score: lm.Score, Stats: st}
		all.Add(st)
	}
	all.Add(cf.Unattributed)
	flushes := rocksfmt.CompactionStats{
		Micros:           cf.Levels[0].Stats.Micros,
		Count:            cf.Levels[0].Stats.Count,
		BytesWritten:     m.Levels[0].TableBytesFlushed,
		BytesWrittenBlob: m.Levels[0].BlobBytesFlushed,
	}
	all.Subtract(flushes)
	cf.ByPriority[rocksfmt.PriorityHigh] = flushes
	cf.ByPriority[rocksfmt.PriorityLow] = all
	st := d.stalls.snapshot()
	cf.Stalls[rocksfmt.StallL0NumFiles] = uint64(st.l0Files)
	cf.Stalls[rocksfmt.StallMemtableCompaction] = uint64(st.memtable)
	return cf
}

// writeCounters gathers the figures of the DB Stats lines.
func (d *DB) writeCounters(m *pebble.Metrics) rocksfmt.WriteCounters {
	writes := uint64(d.writes.Load())
	w := rocksfmt.WriteCounters{
		Writes:       writes,
		Keys:         uint64(d.keys.Load()),
		CommitGroups: writes,
		IngestBytes:  uint64(d.bytesIn.Load()),
		WALSyncs:     uint64(d.syncs.Load()),
		StallMicros:  uint64(d.stalls.snapshot().total.Microseconds()),
	}
	if !d.disableWAL {
		w.WALWrites, w.WALBytes = writes, m.WAL.BytesIn
	}
	return w
}

func spaceAmp(live, referenced uint64) float64 {
	if referenced == 0 {
		return 0
	}
	return float64(live) / float64(referenced)
}
