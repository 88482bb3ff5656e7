package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/tools/suite"
)

// TestSmokeSuiteEndToEnd builds our db_bench and runs the shipped smoke suite
// (pebble and native, 200K keys): every process must succeed, produce result
// lines, JSON records and memory samples, and the engines' read checksums
// must agree.
func TestSmokeSuiteEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the real binaries; skipped in -short mode")
	}
	bin := filepath.Join(t.TempDir(), "db_bench")
	build := exec.Command("go", "build", "-o", bin, "../../cmd/db_bench")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	s, err := suite.Load("../../testdata/suites/smoke.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s.Output = t.TempDir()
	s.Scratch = t.TempDir()
	var progress strings.Builder
	run, err := Execute(s, Binaries{DBBench: bin, MemtablerepBench: "/bin/false"}, &progress)
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range run.Results {
		if !pr.OK() || len(pr.Lines) == 0 || len(pr.Records) == 0 {
			t.Errorf("%s on %s: status %q, %d lines, %d records\n%s", pr.Pass, pr.Engine, pr.Status, len(pr.Lines), len(pr.Records), logText(pr.LogFile))
		}
	}
	if len(run.Mismatches) > 0 {
		t.Errorf("checksum mismatches: %v", run.Mismatches)
	}
	if fill := run.Result("fillrandom", "native"); fill != nil && fill.DBAllocated == 0 {
		t.Error("no DB size measured")
	}
}

func logText(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}
