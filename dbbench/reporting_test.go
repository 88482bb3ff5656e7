package dbbench

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock returns t0, t0+step, t0+2*step, ... on successive calls.
func fakeClock(step time.Duration) func() time.Time {
	t := time.Date(2026, 11, 30, 0, 44, 52, 0, time.UTC)
	return func() time.Time {
		now := t
		t = t.Add(step)
		return now
	}
}

func TestIntervalLinesGolden(t *testing.T) {
	var errBuf bytes.Buffer
	var all strings.Builder

	// --stats_interval=1000: a line every 1000 ops of each thread.
	r := &runner{errw: &lockedWriter{w: &errBuf}, clock: fakeClock(12345678 * time.Nanosecond)}
	r.cfg.progressReports = true
	r.cfg.statsInterval = 1000
	var s Stats
	s.startAt(r, 0)
	for i := 0; i < 3500; i++ {
		s.finishedOps(1, opRead)
	}
	var s1 Stats
	s1.startAt(r, 1)
	for i := 0; i < 3; i++ {
		s1.finishedOps(1000, opWrite) // a batch of 1000 per call, as fillbatch
	}
	all.WriteString(errBuf.String())

	// --stats_interval_seconds=1 forces the interval to 1000 ops and prints
	// only once a second has passed since the thread's previous line.
	errBuf.Reset()
	r = &runner{errw: &lockedWriter{w: &errBuf}, clock: fakeClock(400 * time.Millisecond)}
	r.cfg.progressReports = true
	r.cfg.statsInterval = 1000
	r.cfg.statsIntervalSeconds = 1
	s.startAt(r, 0)
	for i := 0; i < 8000; i++ {
		s.finishedOps(1, opRead)
	}
	all.WriteString(errBuf.String())
	golden(t, "interval_lines.txt", all.String())
}

func TestIntervalLineMicroseconds(t *testing.T) {
	// db_bench reads a microsecond clock, so each time is truncated before
	// the difference is taken: 00.000000600 to 00.554835100 is 554835 µs.
	t0 := time.Date(2026, 11, 30, 0, 44, 52, 600, time.UTC)
	got := intervalLine(t0.Add(554834500*time.Nanosecond), t0, t0, 0, 50000, 50000)
	want := "2026/11/30-00:44:52  ... thread 0: (50000,50000) ops and (90116.9,90116.9) ops/second in (0.554835,0.554835) seconds\n"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func TestProgressLinesGolden(t *testing.T) {
	var errBuf bytes.Buffer
	r := &runner{errw: &lockedWriter{w: &errBuf}}
	r.cfg.progressReports = true
	var s Stats
	s.startAt(r, 0)
	for i := 0; i < 12; i++ {
		s.finishedOps(1000, opWrite) // fillbatch: one call per 1000-entry batch
	}
	for i := 0; i < 700; i++ {
		s.finishedOps(7, opWrite)
	}
	// Lines end in 30 spaces and a carriage return; the golden file keeps
	// them one per line for reading.
	golden(t, "progress_lines.txt", strings.ReplaceAll(errBuf.String(), "\r", "\\r\n"))

	errBuf.Reset()
	r.cfg.progressReports = false
	s.startAt(r, 0)
	for i := 0; i < 5000; i++ {
		s.finishedOps(1, opWrite)
	}
	if errBuf.Len() != 0 {
		t.Fatalf("--progress_reports=false printed %q", errBuf.String())
	}
}

func TestCSVReportGolden(t *testing.T) {
	var b strings.Builder
	b.WriteString(csvHeader)
	for _, c := range []struct {
		elapsed time.Duration
		ops     int64
	}{
		{1000012 * time.Microsecond, 373787},
		{1499999 * time.Microsecond, 7},
		{1500000 * time.Microsecond, 0},
		{2500000*time.Microsecond - time.Nanosecond, 213072}, // 2499999 µs: rounds down
		{3000000 * time.Microsecond, 302277},
	} {
		b.WriteString(csvRow(c.elapsed, c.ops))
	}
	golden(t, "report_csv.txt", b.String())
}

func TestCSVReporterWritesHeaderAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.csv")
	if err := os.WriteFile(path, []byte("stale rows\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ops atomic.Int64
	c, err := startCSVReporter(path, 1, &ops)
	if err != nil {
		t.Fatal(err)
	}
	c.stop()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != csvHeader {
		t.Fatalf("a run shorter than the interval left %q, want the header alone", got)
	}
	// db_bench's words for the two usual failures (it then aborts).
	missing := filepath.Join(t.TempDir(), "no", "such.csv")
	_, err = startCSVReporter(missing, 1, &ops)
	want := "Can't open " + missing + ": IO error: No such file or directory: While open a file for appending: " + missing + ": No such file or directory"
	if err == nil || err.Error() != want {
		t.Fatalf("missing directory: %v\nwant %s", err, want)
	}
	dir := t.TempDir()
	_, err = startCSVReporter(dir, 1, &ops)
	want = "Can't open " + dir + ": IO error: While open a file for appending: " + dir + ": Is a directory"
	if err == nil || err.Error() != want {
		t.Fatalf("directory: %v\nwant %s", err, want)
	}
}

func TestParseItemArgsLikeStoi(t *testing.T) {
	for _, c := range []struct {
		item          string
		name          string
		repeat, warm  int
		wantErrSubstr string
	}{
		{item: "readseq[X 2]", name: "readseq", repeat: 2},
		{item: "readseq[X2x]", name: "readseq", repeat: 2},
		{item: "readseq[X2][W1]", name: "readseq", repeat: 2},
		{item: "readseq[Q3]", name: "readseq", repeat: 1},
		{item: "readseq[]", name: "readseq", repeat: 1},
		{item: "readseq[W+3]", name: "readseq", repeat: 1, warm: 3},
		{item: "readseq[Xa]", wantErrSubstr: "invalid count 'Xa' in benchmark arguments 'readseq[Xa]'"},
		{item: "readseq[X-1]", wantErrSubstr: "invalid count 'X'"},
		{item: "readseq[X99999999999]", wantErrSubstr: "invalid count 'X99999999999'"},
	} {
		name, x, w, err := parseItemArgs(c.item)
		if c.wantErrSubstr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErrSubstr) {
				t.Errorf("%s: err %v, want %q", c.item, err, c.wantErrSubstr)
			}
			continue
		}
		if err != nil || name != c.name || x != c.repeat || w != c.warm {
			t.Errorf("%s: got %q X%d W%d %v", c.item, name, x, w, err)
		}
	}
}

func TestOpsPerSecCast(t *testing.T) {
	var b bytes.Buffer
	s := fixedStats(0, 0, 0, "") // --threads=0: nothing ran, zero elapsed time
	s.report(&b, "fillseq", false)
	want := "fillseq      :       0.000 micros/op -9223372036854775808 ops/sec 0.000 seconds 1 operations;\n"
	if b.String() != want {
		t.Fatalf("got  %q\nwant %q", b.String(), want)
	}
}

func TestHeldWriterHoldsUntilRelease(t *testing.T) {
	var b bytes.Buffer
	h := newHeldWriter(&b)
	h.Write([]byte("warning 1\n"))
	b.WriteString("environment\n")
	h.Write([]byte("warning 2\n"))
	h.release()
	h.Write([]byte("later\n"))
	h.release()
	if got := b.String(); got != "environment\nwarning 1\nwarning 2\nlater\n" {
		t.Fatalf("%q", got)
	}
}
