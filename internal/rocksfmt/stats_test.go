package rocksfmt

import (
	"os"
	"strings"
	"testing"
	"time"
)

// The files under testdata/ are "rocksdb.stats" text printed by RocksDB
// 7.8.3's db_bench (--benchmarks=...,stats): rocksdb-7.8.3-fillrandom.txt
// after a fillrandom with small memtables and levels (three levels with
// compactions), rocksdb-7.8.3-reopen.txt just after reopening a database
// whose WAL was flushed at open. The tests feed the writer figures that
// round to RocksDB's and expect its bytes exactly.

func readGolden(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// goldenLine returns the line of golden starting with prefix.
func goldenLine(t *testing.T, golden, prefix string) string {
	t.Helper()
	for _, l := range strings.Split(golden, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l + "\n"
		}
	}
	t.Fatalf("no line %q in golden output", prefix)
	return ""
}

func TestLevelRowsMatchRocksDB(t *testing.T) {
	golden := readGolden(t, "rocksdb-7.8.3-fillrandom.txt")
	flush := CompactionStats{Micros: 250000, CPUMicros: 90000, Count: 29, BytesWritten: 23592960}
	sum := CompactionStats{Micros: 752000, CPUMicros: 250000, Count: 36, BytesReadNonOutputLevels: 21000000,
		BytesReadOutputLevel: 14090000, BytesWritten: 55118000, InputRecords: 288500, DroppedRecords: 29500}
	rows := []LevelRow{
		{Name: "L0", Files: 7, FilesCompacting: 7, SizeBytes: 5704253, WriteAmp: 1, Stats: flush},
		{Name: "L1", Files: 4, FilesCompacting: 4, SizeBytes: 5305794, WriteAmp: 1.5, Stats: CompactionStats{
			Micros: 460000, CPUMicros: 150000, Count: 5, BytesReadNonOutputLevels: 18036000, BytesReadOutputLevel: 11870000,
			BytesWritten: 27060000, InputRecords: 245500, DroppedRecords: 23400}},
		{Name: "L2", Files: 10, SizeBytes: 9017754, Score: 0.2, WriteAmp: 1.4, Stats: CompactionStats{
			Micros: 42000, CPUMicros: 20000, Count: 2, BytesReadNonOutputLevels: 3200000, BytesReadOutputLevel: 2049600,
			BytesWritten: 4505400, InputRecords: 42300, DroppedRecords: 6108}},
		{Name: "Sum", Files: 21, FilesCompacting: 11, SizeBytes: 20027802, WriteAmp: 2.3, Stats: sum},
		{Name: "Int", WriteAmp: 2.3, Stats: sum},
		{Name: "Low", Stats: CompactionStats{Micros: 502000, CPUMicros: 170000, Count: 7, BytesReadNonOutputLevels: 21000000,
			BytesReadOutputLevel: 14110000, BytesWritten: 31530000, InputRecords: 288500, DroppedRecords: 29500}},
		{Name: "High", Stats: flush},
	}
	for _, r := range rows {
		var b strings.Builder
		WriteLevelRow(&b, r)
		if want := goldenLine(t, golden, strings.Repeat(" ", 4-len(r.Name))+r.Name+" "); b.String() != want {
			t.Errorf("row %s:\n got %q\nwant %q", r.Name, b.String(), want)
		}
	}
	for _, groupBy := range []string{"Level", "Priority"} {
		var b strings.Builder
		WriteLevelStatsHeader(&b, "default", groupBy)
		lines := strings.SplitAfter(b.String(), "\n")
		if lines[0] != "\n" || lines[1] != "** Compaction Stats [default] **\n" {
			t.Errorf("%s table title: %q", groupBy, lines[:2])
		}
		header := goldenLine(t, golden, groupBy+" ")
		if lines[2] != header {
			t.Errorf("%s header:\n got %q\nwant %q", groupBy, lines[2], header)
		}
		if dashes := strings.Repeat("-", len(header)) + "\n"; lines[3] != dashes || !strings.Contains(golden, header+dashes) {
			t.Errorf("%s dash line: %d dashes", groupBy, len(lines[3])-1)
		}
	}
}

func TestDBStatsMatchRocksDB(t *testing.T) {
	golden := readGolden(t, "rocksdb-7.8.3-fillrandom.txt")
	want := golden[strings.Index(golden, "\n** DB Stats **"):]
	cur := WriteCounters{Writes: 200000, Keys: 200000, CommitGroups: 200000, IngestBytes: 26203914,
		WALWrites: 200000, WALBytes: 26203914, StallMicros: 7400}
	var b strings.Builder
	next := WriteDBStats(&b, 842800*time.Microsecond, cur, DBStatsBaseline{})
	if b.String() != want {
		t.Errorf("DB stats:\n got %q\nwant %q", b.String(), want)
	}
	if next.Uptime != 842800*time.Microsecond || next.WriteCounters != cur {
		t.Errorf("baseline %+v", next)
	}
	// The next interval starts where this one ended.
	b.Reset()
	WriteDBStats(&b, 2*time.Second, cur, next)
	if !strings.Contains(b.String(), "Interval writes: 0 writes, 0 keys, 0 commit groups, 0.0 writes per commit group, ingest: 0.00 MB, 0.00 MB/s\n") {
		t.Errorf("second interval:\n%s", b.String())
	}
}

// TestColumnFamilyStatsMatchRocksDB renders a whole rocksdb.stats.
func TestColumnFamilyStatsMatchRocksDB(t *testing.T) {
	want := "\n" + readGolden(t, "rocksdb-7.8.3-reopen.txt")
	flush := CompactionStats{Micros: 8000, CPUMicros: 1000, Count: 1, BytesWritten: 314600}
	cf := ColumnFamilyStats{Name: "default", Uptime: 38220 * time.Microsecond, Levels: make([]Level, 7), FlushBytes: 314600}
	cf.Levels[0] = Level{Files: 8, SizeBytes: 6102712, Score: 2, Stats: flush}
	cf.ByPriority[PriorityUser] = flush
	var b strings.Builder
	base := WriteColumnFamilyStats(&b, &cf, ColumnFamilyBaseline{})
	WriteDBStats(&b, cf.Uptime, WriteCounters{}, DBStatsBaseline{})
	if b.String() != want {
		gotLines, wantLines := strings.Split(b.String(), "\n"), strings.Split(want, "\n")
		for i := range min(len(gotLines), len(wantLines)) {
			if gotLines[i] != wantLines[i] {
				t.Errorf("line %d:\n got %q\nwant %q", i, gotLines[i], wantLines[i])
			}
		}
		t.Fatalf("got %d lines, want %d", len(gotLines), len(wantLines))
	}
	if base.FlushBytes != 314600 || base.Sum != flush || base.CompactBytesWritten != 314600 || base.CompactMicros != 8000 {
		t.Errorf("baseline %+v", base)
	}
	// A second dump with nothing new: the Int row and interval lines are 0.
	b.Reset()
	cf.Uptime = 2 * time.Second
	WriteColumnFamilyStats(&b, &cf, base)
	for _, line := range []string{
		" Int      0/0    0.00 KB   0.0      0.0     0.0      0.0       0.0      0.0       0.0   0.0      0.0      0.0      0.00              0.00         0    0.000       0      0       0.0       0.0\n",
		"Interval compaction: 0.00 GB write, 0.00 MB/s write, 0.00 GB read, 0.00 MB/s read, 0.0 seconds\n",
		"Uptime(secs): 2.0 total, 2.0 interval\n",
	} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("second dump lacks %q:\n%s", line, b.String())
		}
	}
}

// TestStallsLine checks the counters' order and the interval total, which
// leaves out the *_with_compaction counters as RocksDB does.
func TestStallsLine(t *testing.T) {
	cf := ColumnFamilyStats{Name: "default", Levels: make([]Level, 2)}
	for i := range cf.Stalls {
		cf.Stalls[i] = uint64(i + 1)
	}
	var b strings.Builder
	base := WriteColumnFamilyStats(&b, &cf, ColumnFamilyBaseline{StallCount: 2})
	want := "Stalls(count): 1 level0_slowdown, 2 level0_slowdown_with_compaction, 3 level0_numfiles, " +
		"4 level0_numfiles_with_compaction, 5 stop for pending_compaction_bytes, 6 slowdown for pending_compaction_bytes, " +
		"7 memtable_compaction, 8 memtable_slowdown, interval 28 total count\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("got:\n%s\nwant %q", b.String(), want)
	}
	if base.StallCount != 30 {
		t.Errorf("stall baseline %d, want 30", base.StallCount)
	}
}

func TestLayoutDiff(t *testing.T) {
	fill := readGolden(t, "rocksdb-7.8.3-fillrandom.txt")
	reopen := readGolden(t, "rocksdb-7.8.3-reopen.txt")
	if d := LayoutDiff(reopen, fill); d != nil {
		t.Errorf("two RocksDB outputs differ in layout: %q", d)
	}
	cache := strings.Replace(fill, "\n\n** File Read", "\nBlock cache LRUCache@0x1 capacity: 8.00 MB\n\n** File Read", 1)
	if d := LayoutDiff(cache, fill); d != nil {
		t.Errorf("a block cache line is optional: %q", d)
	}
	for name, broken := range map[string]string{
		"KeyDrop glued":   strings.Replace(fill, "245K    23K", "245K23K", 1),
		"no AddFile line": strings.Replace(fill, "AddFile(Keys): cumulative 0, interval 0\n", "", 1),
		"GB for MB":       strings.Replace(fill, "ingest: 24.99 MB,", "ingest: 0.02GB,", 1),
		"extra line":      fill + "Uptime(secs): 1.0 total, 1.0 interval\n",
	} {
		if LayoutDiff(broken, fill) == nil {
			t.Errorf("%s: no difference found", name)
		}
	}
}
