package rocksfmt

import (
	"fmt"
	"io"
	"strings"
)

const (
	kib = 1024.0
	mib = 1024 * kib
	gib = 1024 * mib
)

// CompactionStats are the figures behind one row of the compaction-stats
// table: RocksDB's InternalStats::CompactionStats, for the columns it prints.
// Flushes count as compactions into level 0.
type CompactionStats struct {
	Micros    uint64 // wall time spent, Comp(sec)
	CPUMicros uint64 // CompMergeCPU(sec)
	Count     uint64 // Comp(cnt)

	BytesReadNonOutputLevels uint64 // Rn(GB): input from the level(s) above
	BytesReadOutputLevel     uint64 // Rnp1(GB): input from the output level
	BytesReadBlob            uint64 // Rblob(GB)
	BytesWritten             uint64 // Write(GB)
	BytesWrittenBlob         uint64 // Wblob(GB)
	BytesMoved               uint64 // Moved(GB): trivial moves

	InputRecords   uint64 // KeyIn
	DroppedRecords uint64 // KeyDrop
}

// Add adds o to s field by field.
func (s *CompactionStats) Add(o CompactionStats) {
	s.Micros += o.Micros
	s.CPUMicros += o.CPUMicros
	s.Count += o.Count
	s.BytesReadNonOutputLevels += o.BytesReadNonOutputLevels
	s.BytesReadOutputLevel += o.BytesReadOutputLevel
	s.BytesReadBlob += o.BytesReadBlob
	s.BytesWritten += o.BytesWritten
	s.BytesWrittenBlob += o.BytesWrittenBlob
	s.BytesMoved += o.BytesMoved
	s.InputRecords += o.InputRecords
	s.DroppedRecords += o.DroppedRecords
}

// Subtract takes o from s field by field; a field of o larger than s's
// (figures reset under a baseline) leaves 0.
func (s *CompactionStats) Subtract(o CompactionStats) {
	sub := func(a *uint64, b uint64) { *a -= min(*a, b) }
	sub(&s.Micros, o.Micros)
	sub(&s.CPUMicros, o.CPUMicros)
	sub(&s.Count, o.Count)
	sub(&s.BytesReadNonOutputLevels, o.BytesReadNonOutputLevels)
	sub(&s.BytesReadOutputLevel, o.BytesReadOutputLevel)
	sub(&s.BytesReadBlob, o.BytesReadBlob)
	sub(&s.BytesWritten, o.BytesWritten)
	sub(&s.BytesWrittenBlob, o.BytesWrittenBlob)
	sub(&s.BytesMoved, o.BytesMoved)
	sub(&s.InputRecords, o.InputRecords)
	sub(&s.DroppedRecords, o.DroppedRecords)
}

// bytesRead is all input: both levels and blobs, as Read(GB) and Rd(MB/s).
func (s *CompactionStats) bytesRead() uint64 {
	return s.BytesReadNonOutputLevels + s.BytesReadOutputLevel + s.BytesReadBlob
}

// bytesWritten is all output, tables and blobs, as Wr(MB/s).
func (s *CompactionStats) bytesWritten() uint64 {
	return s.BytesWritten + s.BytesWrittenBlob
}

// LevelRow is one row of the compaction-stats table.
type LevelRow struct {
	Name            string // "L0", "Sum", "Int", "Low", ...
	Files           int
	FilesCompacting int
	SizeBytes       uint64
	Score           float64
	WriteAmp        float64
	Stats           CompactionStats
}

// levelTableHeader is the column header after the group-by word ("Level" or
// "Priority").
const levelTableHeader = "    Files   Size     Score Read(GB)  Rn(GB) Rnp1(GB) Write(GB) Wnew(GB) Moved(GB) " +
	"W-Amp Rd(MB/s) Wr(MB/s) Comp(sec) CompMergeCPU(sec) Comp(cnt) Avg(sec) KeyIn KeyDrop Rblob(GB) Wblob(GB)"

// WriteLevelStatsHeader writes the title, the column header and the dash
// line of a compaction-stats table grouped by groupBy ("Level" or
// "Priority"). As in RocksDB, the dash line is one longer than the header.
func WriteLevelStatsHeader(w io.Writer, columnFamily, groupBy string) {
	header := groupBy + levelTableHeader
	fmt.Fprintf(w, "\n** Compaction Stats [%s] **\n%s\n%s\n", columnFamily, header, strings.Repeat("-", len(header)+1))
}

// WriteLevelRow writes r with RocksDB's PrintLevelStats layout, 22
// whitespace-separated fields (the size is two):
//
//	L1      4/4    5.06 MB   0.0      0.0     0.0      0.0       0.0      0.0       0.0   1.5     62.0     56.1      0.46              0.15         5    0.092    245K    23K       0.0       0.0
//
// The MB/s columns divide by the row's own compaction time; a row without
// one (an engine that does not time it) shows 0 there.
func WriteLevelRow(w io.Writer, r LevelRow) {
	s := &r.Stats
	rdRate, wrRate := 0.0, 0.0
	if s.Micros > 0 {
		elapsed := float64(s.Micros+1) / 1e6
		rdRate = float64(s.bytesRead()) / mib / elapsed
		wrRate = float64(s.bytesWritten()) / mib / elapsed
	}
	avg := 0.0
	if s.Count > 0 {
		avg = float64(s.Micros) / 1e6 / float64(s.Count)
	}
	wnew := float64(int64(s.BytesWritten - s.BytesReadOutputLevel))
	fmt.Fprintf(w, "%4s %6d/%-3d %8s %5.1f %8.1f %7.1f %8.1f %9.1f %8.1f %9.1f %5.1f %8.1f %8.1f %9.2f %17.2f %9d %8.3f %7s %6s %9.1f %9.1f\n",
		r.Name, r.Files, r.FilesCompacting, Bytes(r.SizeBytes), r.Score,
		float64(s.bytesRead())/gib, float64(s.BytesReadNonOutputLevels)/gib, float64(s.BytesReadOutputLevel)/gib,
		float64(s.BytesWritten)/gib, wnew/gib, float64(s.BytesMoved)/gib, r.WriteAmp,
		rdRate, wrRate, float64(s.Micros)/1e6, float64(s.CPUMicros)/1e6, s.Count, avg,
		Count(int64(s.InputRecords)), Count(int64(s.DroppedRecords)),
		float64(s.BytesReadBlob)/gib, float64(s.BytesWrittenBlob)/gib)
}
