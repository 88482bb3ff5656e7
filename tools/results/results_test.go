package results

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseCppDbBench(t *testing.T) {
	f, err := os.Open("testdata/cpp_dbbench_7.8.3.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, err := ParseDBBench(f)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name string
		ops  int64
		msg  string
	}{
		{"fillseq", 20000, ""},
		{"readrandom", 20000, "(20000 of 20000 found)"},
		{"seekrandom", 20000, "(20000 of 20000 found)"},
		{"readrandomwriterandom", 20000, "( reads:18000 writes:2000 total:20000 found:18000)"},
		{"compact", 1, ""},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines: %+v", len(lines), lines)
	}
	for i, w := range want {
		l := lines[i]
		if l.Name != w.name || l.Ops != w.ops || l.Message != w.msg || l.OpsPerSec <= 0 || l.Seconds <= 0 {
			t.Errorf("line %d: %+v want %+v", i, l, w)
		}
	}
	if lines[0].MBPerSec != 12.0 || lines[2].MBPerSec != 0 {
		t.Errorf("MB/s: %v %v", lines[0].MBPerSec, lines[2].MBPerSec)
	}
}

func TestParseToplingTimestamps(t *testing.T) {
	f, _ := os.Open("testdata/topling_timestamps.log")
	defer f.Close()
	lines, err := ParseDBBench(f)
	if err != nil || len(lines) != 3 {
		t.Fatal(lines, err)
	}
	if !lines[0].Start.Equal(time.Date(2026, 10, 8, 9, 57, 1, 123456000, time.UTC)) || lines[0].OpsPerSec != 1789140 {
		t.Fatalf("%+v", lines[0])
	}
	if lines[2].Message != "(31606113 of 50000000 found)" || lines[2].MBPerSec != 361.4 {
		t.Fatalf("%+v", lines[2])
	}
}

func TestParseMemtablerep(t *testing.T) {
	f, _ := os.Open("testdata/memtablerep_bench.log")
	defer f.Close()
	m, err := ParseMemtablerep(f)
	if err != nil || len(m) != 2 {
		t.Fatal(m, err)
	}
	if m[0].Benchmark != "fillrandom" || m[0].ElapsedMicros != 237197 || m[0].WriteMicrosOp != 2.37197 || m[0].MemoryUsage != 18874368 {
		t.Fatalf("%+v", m[0])
	}
	if m[1].Threads != 2 || m[1].ReadHitPct != 99.988 || m[1].ReadMicrosOp != 6.3609 {
		t.Fatalf("%+v", m[1])
	}
}

// TestParseLogCppHistograms reads latency from C++ db_bench's text histograms
// and its version from the header.
func TestParseLogCppHistograms(t *testing.T) {
	f, _ := os.Open("testdata/cpp_dbbench_7.8.3.log")
	defer f.Close()
	lg, err := ParseLog(f)
	if err != nil {
		t.Fatal(err)
	}
	if lg.Version != "RocksDB 7.8.3" {
		t.Errorf("version %q", lg.Version)
	}
	w := lg.Lines[0].Latency["write"]
	if w.Count != 20000 || w.Mean != 9.2398 || w.Max != 20055 || w.P50 != 1.24 || w.P75 != 1.77 || w.P99 != 10.07 || w.P999 != 513.33 || w.P9999 != 12633.33 {
		t.Errorf("fillseq write latency %+v", w)
	}
	if r := lg.Lines[1].Latency["read"]; r.P99 != 5.84 || len(lg.Lines[1].Latency) != 1 {
		t.Errorf("readrandom latency %+v", lg.Lines[1].Latency)
	}
	if _, ok := lg.Lines[2].Latency["seek"]; !ok {
		t.Errorf("seekrandom latency %+v", lg.Lines[2].Latency)
	}
	if len(lg.PassWarnings) != 1 || lg.PassWarnings[0] != "WARNING: Assertions are enabled; benchmarks unnecessarily slow" {
		t.Errorf("pass warnings %q", lg.PassWarnings)
	}
}

// TestParseLogWarnings attributes a warning printed at open to the pass and
// one printed while compact ran to compact alone.
func TestParseLogWarnings(t *testing.T) {
	f, _ := os.Open("testdata/pebble_warnings.log")
	defer f.Close()
	lg, err := ParseLog(f)
	if err != nil || len(lg.Lines) != 3 {
		t.Fatal(lg, err)
	}
	if lg.Version != "Pebble v2.1.7" {
		t.Errorf("version %q", lg.Version)
	}
	if len(lg.PassWarnings) != 1 || lg.PassWarnings[0] != "WARNING: engine pebble ignores option use_direct_reads" {
		t.Errorf("pass warnings %q", lg.PassWarnings)
	}
	want := [][]string{nil, {"WARNING: engine pebble cannot compact to a chosen level; ignoring target level 6"}, nil}
	for i, l := range lg.Lines {
		if strings.Join(l.Warnings, "|") != strings.Join(want[i], "|") {
			t.Errorf("%s warnings %q, want %q", l.Name, l.Warnings, want[i])
		}
	}
	if lg.Lines[2].Latency["read"].P99 != 103.72 {
		t.Errorf("readseq latency %+v", lg.Lines[2].Latency)
	}
	if len(lg.Errors) != 0 {
		t.Errorf("errors %q", lg.Errors)
	}
}

// TestParseLogErrors keeps error reports and warnings of a benchmark that
// never finished.
func TestParseLogErrors(t *testing.T) {
	log := "ERROR: unknown command line flag 'bogus'\n" + headerEnd + "\nfillseq      :       9.241 micros/op 108203 ops/sec 0.185 seconds 20000 operations;\n" +
		"WARNING: engine x cannot do that\nput error: IO error: No space left on device\n"
	lg, err := ParseLog(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if lg.LastLine != "put error: IO error: No space left on device" {
		t.Errorf("last line %q", lg.LastLine)
	}
	if len(lg.Errors) != 2 || lg.Errors[1] != "put error: IO error: No space left on device" {
		t.Errorf("errors %q", lg.Errors)
	}
	if len(lg.PassWarnings) != 1 || len(lg.Lines) != 1 || lg.Lines[0].Warnings != nil {
		t.Errorf("warnings %q / %+v", lg.PassWarnings, lg.Lines)
	}
}
