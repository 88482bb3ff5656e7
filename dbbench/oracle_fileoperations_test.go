package dbbench_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// fileOperationsBlock returns the result line's benchmark name and the
// counter lines that follow it, up to the next line of another kind.
func fileOperationsBlock(out, bench string) []string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, bench+" ") {
			continue
		}
		block := []string{bench}
		rest := lines[i+1:]
		if len(rest) > 0 && rest[0] == "" {
			rest = rest[1:] // after a message ending in a newline
		}
		for _, c := range rest {
			if !strings.HasPrefix(c, "Num ") {
				break
			}
			block = append(block, c)
		}
		return block
	}
	return nil
}

var counterValue = regexp.MustCompile(`(?m): [0-9]+$`)

// counterOf is the value of the counter named in block, -1 without one.
func counterOf(block []string, name string) int {
	for _, l := range block {
		if v, ok := strings.CutPrefix(l, name+": "); ok {
			n, err := strconv.Atoi(v)
			if err == nil {
				return n
			}
		}
	}
	return -1
}

// TestFileOperationsReportFormat: the rocksdb engine prints db_bench's
// counter lines, in its words and order, after the result line
// (testdata/file_operations_report.txt, values as N), and counts anew for
// each benchmark: a read-only benchmark after a fill appends nothing. (The
// counts of the first block include what earlier tests' DBs did since the
// last report: the counters are the process's.)
func TestFileOperationsReportFormat(t *testing.T) {
	if !slices.Contains(engine.Names(), "rocksdb") {
		t.Skip("built without the rocksdb engine (-tags rocksdb)")
	}
	want, err := os.ReadFile("testdata/file_operations_report.txt")
	if err != nil {
		t.Fatal(err)
	}
	out := runOurs(t, "rocksdb", []string{"--benchmarks=fillseq,readrandom", "--num=2000", "--seed=1", "--report_file_operations"})
	block := fileOperationsBlock(out, "fillseq")
	got := counterValue.ReplaceAllString(strings.Join(block, "\n"), ": N")
	if got+"\n" != string(want) {
		t.Errorf("fillseq's report:\n%s\nwant:\n%s", got, want)
	}
	if n := counterOf(block, "Num Append()"); n < 2000 {
		t.Errorf("fillseq's report counts %d appends for 2000 writes:\n%s", n, strings.Join(block, "\n"))
	}
	if read := fileOperationsBlock(out, "readrandom"); !slices.Contains(read, "Num Append(): 0") {
		t.Errorf("readrandom's report does not start from zero:\n%s", strings.Join(read, "\n"))
	}
}

// TestOracleFileOperations: a fill small enough to run no flush or
// compaction makes the same counts on C++ db_bench's counting file system
// and on ours, but for the bytes, which differ by the OPTIONS files (C++
// db_bench's names a listener ours does not install).
func TestOracleFileOperations(t *testing.T) {
	requireRocksDBOracle(t)
	args := []string{"--benchmarks=fillseq,readrandom", "--num=5000", "--seed=1", "--report_file_operations", "--compression_type=none"}
	withoutBytes := func(b []string) string {
		var keep []string
		for _, l := range b {
			if !strings.HasPrefix(l, "Num bytes ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	// Ours runs in a process of its own: the counters are the process's,
	// and a DB closed by an earlier test would count in this one.
	wantOut := runOracle(t, args)
	code, gotOut := runOursSubprocess(t, append([]string{"--engine=rocksdb", "--db=" + filepath.Join(t.TempDir(), "db")}, args...))
	if code != 0 {
		t.Fatalf("ours exited %d:\n%s", code, gotOut)
	}
	for _, bench := range []string{"fillseq", "readrandom"} {
		want := withoutBytes(fileOperationsBlock(wantOut, bench))
		got := withoutBytes(fileOperationsBlock(gotOut, bench))
		if got != want || len(want) == 0 {
			t.Errorf("%s:\n--- ours\n%s\n--- C++ db_bench\n%s", bench, got, want)
		}
	}
}
