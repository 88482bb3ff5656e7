package dbbench_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBuildInfo: --build_info prints what the binary is in db_bench's
// shape and exits 0 without opening anything, as db_bench does.
func TestBuildInfo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	code, stdout, stderr := runMain(t, "--engine=native", "--db="+dir, "--build_info", "--benchmarks=fillseq")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !regexp.MustCompile(`^ \(godbbench\) \d+\.\d+\.\d+\n    godbbench_build_git_sha: \S+\n(.*\n)*    engines: .*native.*\n$`).MatchString(stdout) {
		t.Fatalf("unexpected --build_info output:\n%s", stdout)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatalf("--build_info created %s", dir)
	}
}

// TestReportOpenTimingAndMallocStats: --report_open_timing prints
// "OpenDb: T milliseconds" after every open (the first one, before the
// header, and the fresh DB's re-open, before "DB path:"), and
// --print_malloc_stats the memory block after the run, as db_bench places
// them.
func TestReportOpenTimingAndMallocStats(t *testing.T) {
	code, stdout, stderr := runMain(t, "--engine=native", "--db="+filepath.Join(t.TempDir(), "db"), "--seed=1",
		"--benchmarks=fillseq,readseq", "--num=100", "--report_open_timing", "--print_malloc_stats")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	opens := regexp.MustCompile(`(?m)^OpenDb:     [0-9.e+-]+ milliseconds\n(Keys: |DB path: )`).FindAllString(stdout, -1)
	if len(opens) != 2 || !strings.HasSuffix(opens[0], "Keys: ") || !strings.HasSuffix(opens[1], "DB path: ") {
		t.Fatalf("want an OpenDb line before the header and one before DB path:\n%s", stdout)
	}
	i := strings.Index(stdout, "Malloc stats:\n")
	if i < 0 || i < strings.Index(stdout, "readseq ") || !strings.Contains(stdout[i:], "\ngo_heap_alloc_bytes: ") {
		t.Fatalf("no Malloc stats block after the run:\n%s", stdout)
	}
}
