package dbbench

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = os.Getenv("UPDATE_GOLDEN") != ""

// golden compares got with testdata/name, rewriting it with UPDATE_GOLDEN=1.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func fixedStats(done, bytes int64, secs float64, msg string) *Stats {
	t0 := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	return &Stats{done: done, bytes: bytes, seconds: secs, message: msg,
		start: t0, finish: t0.Add(time.Duration(secs * float64(time.Second)))}
}

func TestResultLines(t *testing.T) {
	var b bytes.Buffer
	fixedStats(100000, 100000*116, 0.541, "").report(&b, "fillseq", false)
	fixedStats(100000, 86416*116, 0.392, "(86416 of 100000 found)\n").report(&b, "readrandom", false)
	fixedStats(100000, 0, 0.381, "(86603 of 100000 found)\n").report(&b, "seekrandom", false)
	fixedStats(40000, 0, 0.355, "").report(&b, "deleteseq", false)
	fixedStats(0, 0, 0.022, "").report(&b, "compact", false)
	fixedStats(20000, 0, 0.046, "( reads:18000 writes:2000 total:20000 found:11651)").report(&b, "readrandomwriterandom", false)
	golden(t, "result_lines.txt", b.String())
}

func TestResultLineMultiThreadArithmetic(t *testing.T) {
	// Two threads of 1 s each over 1 s of wall time: micros/op uses the
	// summed thread time, ops/sec the wall time (truncated).
	s := fixedStats(3, 0, 1.0, "")
	s.seconds = 2.0
	var b bytes.Buffer
	s.report(&b, "x", false)
	if got := b.String(); got != "x            :  666666.667 micros/op 3 ops/sec 1.000 seconds 3 operations;\n" {
		t.Fatalf("%q", got)
	}
}

func TestHistogramBlockAfterResult(t *testing.T) {
	s := fixedStats(4, 0, 0.001, "")
	h := NewHistogram()
	for _, v := range []uint64{1, 2, 3, 3} {
		h.Add(v)
	}
	s.hist[opRead], s.hdr[opRead] = h, newHdrRecorder()
	s.histOrd = []OpType{opRead}
	var b bytes.Buffer
	s.report(&b, "readrandom", true)
	golden(t, "histogram_block.txt", b.String())
}

func TestRepeatLines(t *testing.T) {
	var c combinedStats
	var b bytes.Buffer
	for _, secs := range []float64{1.0, 0.5, 0.25} {
		c.add(fixedStats(1000, 1048576, secs, ""))
		c.report(&b, "fillseq")
	}
	c.reportFinal(&b, "fillseq")
	var n combinedStats
	for _, secs := range []float64{1.0, 0.5} {
		n.add(fixedStats(1000, 0, secs, ""))
		n.report(&b, "deleteseq")
	}
	n.reportFinal(&b, "deleteseq")
	n.reportCI(&b, "deleteseq")
	golden(t, "repeat_lines.txt", b.String())
	if !strings.Contains(b.String(), "fillseq [AVG    3 runs] : 2333 (\u00b1 1728) ops/sec;") {
		t.Fatalf("final AVG line wrong:\n%s", b.String())
	}
}

func TestProgressSchedule(t *testing.T) {
	var errBuf bytes.Buffer
	r := &runner{errw: &lockedWriter{w: &errBuf}}
	r.cfg.progressReports = true
	var s Stats
	s.startAt(r, 0)
	for i := 0; i < 12000; i++ {
		s.finishedOps(1, opWrite)
	}
	var got []string
	for _, l := range strings.Split(errBuf.String(), "\r") {
		if l != "" {
			got = append(got, strings.TrimSuffix(strings.TrimPrefix(l, "... finished "), " ops"+strings.Repeat(" ", 30)))
		}
	}
	want := "100 200 300 400 500 600 700 800 900 1000 1500 2000 2500 3000 3500 4000 4500 5000 6000 7000 8000 9000 10000"
	if strings.Join(got, " ") != want {
		t.Fatalf("progress %v", got)
	}
	if !strings.HasPrefix(errBuf.String(), "... finished 100 ops"+strings.Repeat(" ", 30)+"\r") {
		t.Fatalf("line format %q", errBuf.String()[:60])
	}
}

func TestDurationLoopCounts(t *testing.T) {
	r := &runner{}
	r.cfg.opsBetweenDurationChecks = 1000
	d := r.newDuration(0, 10000)
	n := 0
	for !d.done(7) {
		n += 7
	}
	if n != 9996 {
		t.Fatalf("num 10000 batch 7 gave %d ops, want 9996", n)
	}
}

func TestParseItemArgs(t *testing.T) {
	name, x, w, err := parseItemArgs("readrandom[X3-W1]")
	if err != nil || name != "readrandom" || x != 3 || w != 1 {
		t.Fatal(name, x, w, err)
	}
	if _, _, _, err := parseItemArgs("readrandom]"); err == nil || err.Error() != "unknown benchmark arguments 'readrandom]'" {
		t.Fatal(err)
	}
	name, x, w, _ = parseItemArgs("fillseq[-X2--]")
	if name != "fillseq" || x != 2 || w != 0 {
		t.Fatal(name, x, w)
	}
}

func TestCtimeAndMemtablerep(t *testing.T) {
	if got := ctime(time.Date(2026, 11, 3, 0, 44, 13, 0, time.UTC)); got != "Tue Nov  3 00:44:13 2026" {
		t.Fatal(got)
	}
	for in, want := range map[string]string{"skip_list": "SkipListFactory", "skip_list:4": "SkipListFactory:4",
		"vector": "VectorRepFactory", "cspp": "CSPPMemTab", "offset_skiplist": "OffsetSkipList"} {
		if got := memtablerepID(in, 0); got != want {
			t.Errorf("%s -> %s", in, got)
		}
	}
	n, model, cache := cpuInfo(strings.NewReader("processor\t: 0\nmodel name\t: AMD EPYC\ncache size\t: 1024 KB\nprocessor\t: 1\nmodel name\t: AMD EPYC\n"))
	if n != 2 || model != "AMD EPYC" || cache != "1024 KB" {
		t.Fatal(n, model, cache)
	}
}
