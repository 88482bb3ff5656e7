package results

import (
	"os"
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
