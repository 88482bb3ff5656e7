package rocksfmt

import (
	"fmt"
	"io"
	"time"
)

// Stall indexes the counters of RocksDB's "Stalls(count):" line, in its order.
type Stall int

// The write-stall counters, as RocksDB names them on the "Stalls(count):" line.
const (
	StallL0Slowdown               Stall = iota // level0_slowdown
	StallL0SlowdownWithCompaction              // level0_slowdown_with_compaction
	StallL0NumFiles                            // level0_numfiles (a stop)
	StallL0NumFilesWithCompaction              // level0_numfiles_with_compaction
	StallStopPendingBytes                      // stop for pending_compaction_bytes
	StallSlowdownPendingBytes                  // slowdown for pending_compaction_bytes
	StallMemtableCompaction                    // memtable_compaction (a stop)
	StallMemtableSlowdown                      // memtable_slowdown
	NumStalls
)

// Priority indexes the rows of the table grouped by thread-pool priority,
// in RocksDB's Env::Priority order.
type Priority int

// The thread-pool priorities: flushes run at High, compactions at Low,
// work done on a user's thread (a flush at open) at User.
const (
	PriorityBottom Priority = iota
	PriorityLow
	PriorityHigh
	PriorityUser
	NumPriorities
)

var priorityNames = [NumPriorities]string{"Bottom", "Low", "High", "User"}

// Level is what an engine knows of one level for the compaction-stats table.
type Level struct {
	Files           int
	FilesCompacting int
	SizeBytes       uint64
	Score           float64
	Stats           CompactionStats // cumulative, attributed to the output level
}

// BlobFiles are the figures of the "Blob file count:" line.
type BlobFiles struct {
	Count                  int
	TotalSize, GarbageSize uint64
	SpaceAmp               float64
}

// ColumnFamilyStats are the cumulative figures of RocksDB's per-column-family
// part of "rocksdb.stats" (InternalStats::DumpCFStats).
type ColumnFamilyStats struct {
	Name   string        // "default"
	Uptime time.Duration // since the statistics started
	Levels []Level       // index = level
	// Unattributed is compaction work an engine keeps only in total: it counts
	// in the Sum and Int rows and the compaction lines, but on no level row.
	Unattributed CompactionStats
	ByPriority   [NumPriorities]CompactionStats
	FlushBytes   uint64 // bytes flushed from memtables: the ingest W-Amp divides by
	Blob         BlobFiles
	Stalls       [NumStalls]uint64
	// CacheText, if not empty, is printed after the Stalls line, as RocksDB
	// prints its block-cache entry statistics there.
	CacheText string
}

// ColumnFamilyBaseline is what the previous dump left for the "Int" row and
// the interval lines; the zero value starts the interval at the beginning.
type ColumnFamilyBaseline struct {
	Uptime              time.Duration
	FlushBytes          uint64
	Sum                 CompactionStats
	CompactBytesWritten uint64
	CompactBytesRead    uint64
	CompactMicros       uint64
	StallCount          uint64
}

// levelPrinted is RocksDB's rule for which level rows appear: a level with
// files or compaction time. Traffic and counts also qualify, for engines that
// do not time each level.
func levelPrinted(l *Level) bool {
	s := &l.Stats
	return l.Files > 0 || s.Micros > 0 || s.CPUMicros > 0 || s.Count > 0 || s.BytesWritten > 0 || s.BytesMoved > 0
}

// ratio is a/b, or 0 when b is 0.
func ratio(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// perSecond is bytes in MB/s over secs, with RocksDB's floor of 1ms.
func perSecond(bytes uint64, secs float64) float64 {
	return float64(bytes) / mib / max(secs, 0.001)
}

// WriteColumnFamilyStats writes the per-column-family part of rocksdb.stats
// in RocksDB 7.8.3's layout: the level table with Sum and Int rows, the
// table by priority, the blob line, the uptime, flush, AddFile, compaction
// and stall lines, and the (empty) file read latency section. It returns the
// baseline for the next call's interval figures.
//
// W-Amp is RocksDB's: bytes written over the level's input (for L0 and Sum,
// over bytes flushed); Int's divides by the interval's flushed bytes + 1.
func WriteColumnFamilyStats(w io.Writer, cf *ColumnFamilyStats, prev ColumnFamilyBaseline) ColumnFamilyBaseline {
	next := cf.Baseline()
	sum := next.Sum
	WriteLevelStatsHeader(w, cf.Name, "Level")
	var sumFiles, sumCompacting int
	var sumSize uint64
	for i := range cf.Levels {
		l := &cf.Levels[i]
		sumFiles += l.Files
		sumCompacting += l.FilesCompacting
		if !levelPrinted(l) {
			continue
		}
		sumSize += l.SizeBytes
		input := l.Stats.BytesReadNonOutputLevels + l.Stats.BytesReadBlob
		if i == 0 {
			input = cf.FlushBytes
		}
		WriteLevelRow(w, LevelRow{Name: fmt.Sprintf("L%d", i), Files: l.Files, FilesCompacting: l.FilesCompacting,
			SizeBytes: l.SizeBytes, Score: l.Score, WriteAmp: ratio(l.Stats.bytesWritten(), input), Stats: l.Stats})
	}
	WriteLevelRow(w, LevelRow{Name: "Sum", Files: sumFiles, FilesCompacting: sumCompacting, SizeBytes: sumSize,
		WriteAmp: ratio(sum.bytesWritten(), cf.FlushBytes), Stats: sum})
	intervalFlush := cf.FlushBytes - min(cf.FlushBytes, prev.FlushBytes)
	interval := sum
	interval.Subtract(prev.Sum)
	WriteLevelRow(w, LevelRow{Name: "Int", WriteAmp: ratio(interval.bytesWritten(), intervalFlush+1), Stats: interval})

	WriteLevelStatsHeader(w, cf.Name, "Priority")
	for p := range cf.ByPriority {
		if cf.ByPriority[p].Micros > 0 {
			WriteLevelRow(w, LevelRow{Name: priorityNames[p], Stats: cf.ByPriority[p]})
		}
	}

	fmt.Fprintf(w, "\nBlob file count: %d, total size: %.1f GB, garbage size: %.1f GB, space amp: %.1f\n\n",
		cf.Blob.Count, float64(cf.Blob.TotalSize)/gib, float64(cf.Blob.GarbageSize)/gib, cf.Blob.SpaceAmp)
	uptime := cf.Uptime.Seconds()
	intervalSecs := uptime - prev.Uptime.Seconds()
	fmt.Fprintf(w, "Uptime(secs): %.1f total, %.1f interval\n", uptime, intervalSecs)
	fmt.Fprintf(w, "Flush(GB): cumulative %.3f, interval %.3f\n", float64(cf.FlushBytes)/gib, float64(intervalFlush)/gib)
	// No engine here ingests external files.
	fmt.Fprint(w, "AddFile(GB): cumulative 0.000, interval 0.000\n"+
		"AddFile(Total Files): cumulative 0, interval 0\n"+
		"AddFile(L0 Files): cumulative 0, interval 0\n"+
		"AddFile(Keys): cumulative 0, interval 0\n")

	write, read, micros := next.CompactBytesWritten, next.CompactBytesRead, next.CompactMicros
	writeCompactionLine(w, "Cumulative", write, read, micros, uptime)
	writeCompactionLine(w, "Interval", write-min(write, prev.CompactBytesWritten), read-min(read, prev.CompactBytesRead),
		micros-min(micros, prev.CompactMicros), intervalSecs)

	st := &cf.Stalls
	fmt.Fprintf(w, "Stalls(count): %d level0_slowdown, %d level0_slowdown_with_compaction, %d level0_numfiles, "+
		"%d level0_numfiles_with_compaction, %d stop for pending_compaction_bytes, %d slowdown for pending_compaction_bytes, "+
		"%d memtable_compaction, %d memtable_slowdown, interval %d total count\n",
		st[StallL0Slowdown], st[StallL0SlowdownWithCompaction], st[StallL0NumFiles], st[StallL0NumFilesWithCompaction],
		st[StallStopPendingBytes], st[StallSlowdownPendingBytes], st[StallMemtableCompaction], st[StallMemtableSlowdown],
		next.StallCount-min(next.StallCount, prev.StallCount))
	fmt.Fprint(w, cf.CacheText)
	fmt.Fprintf(w, "\n** File Read Latency Histogram By Level [%s] **\n", cf.Name)

	return next
}

// Baseline returns the baseline a dump of cf leaves for the next one, for an
// engine that restarts the interval without printing.
func (cf *ColumnFamilyStats) Baseline() ColumnFamilyBaseline {
	b := ColumnFamilyBaseline{Uptime: cf.Uptime, FlushBytes: cf.FlushBytes}
	var all CompactionStats
	for i := range cf.Levels {
		l := &cf.Levels[i]
		all.Add(l.Stats)
		if levelPrinted(l) {
			b.Sum.Add(l.Stats)
		}
	}
	all.Add(cf.Unattributed)
	b.Sum.Add(cf.Unattributed)
	b.CompactBytesWritten, b.CompactBytesRead, b.CompactMicros = all.bytesWritten(), all.bytesRead(), all.Micros
	st := &cf.Stalls
	b.StallCount = st[StallL0Slowdown] + st[StallL0NumFiles] + st[StallSlowdownPendingBytes] +
		st[StallStopPendingBytes] + st[StallMemtableCompaction] + st[StallMemtableSlowdown]
	return b
}

// writeCompactionLine writes "<kind> compaction: 0.05 GB write, 62.48 MB/s
// write, 0.03 GB read, 39.80 MB/s read, 0.8 seconds".
func writeCompactionLine(w io.Writer, kind string, write, read, micros uint64, secs float64) {
	fmt.Fprintf(w, "%s compaction: %.2f GB write, %.2f MB/s write, %.2f GB read, %.2f MB/s read, %.1f seconds\n",
		kind, float64(write)/gib, perSecond(write, secs), float64(read)/gib, perSecond(read, secs), float64(micros)/1e6)
}
