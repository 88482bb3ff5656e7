package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/tools/suite"
)

func fakeSuite(t *testing.T, engines, skip string) *suite.Suite {
	t.Helper()
	doc := "output: " + t.TempDir() + "\nscratch: " + t.TempDir() + "\ntimeout: 20s\nengines:\n" + engines + `
passes:
  - name: fill
    benchmarks: fillrandom,readrandom
  - name: again
    benchmarks: readrandom
    existing_db: fill
    skip: [` + skip + `]
`
	s, err := suite.Parse([]byte(doc), "fake.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func fakeBins(t *testing.T) Binaries {
	p, err := filepath.Abs("testdata/fake_db_bench.sh")
	if err != nil {
		t.Fatal(err)
	}
	return Binaries{DBBench: p, MemtablerepBench: p}
}

func TestExecuteCollectsEverything(t *testing.T) {
	fake, _ := filepath.Abs("testdata/fake_db_bench.sh")
	s := fakeSuite(t, "  - {name: a, engine: native}\n  - {name: b, engine: pebble}\n  - {name: ext, binary: "+fake+"}\n", "ext")
	var progress strings.Builder
	run, err := Execute(s, fakeBins(t), &progress)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Results) != 6 {
		t.Fatalf("%d results", len(run.Results))
	}
	a := run.Result("fill", "a")
	if !a.OK() || len(a.Lines) != 2 || len(a.Records) != 2 || a.Sampler == nil || a.Lines[0].Start.IsZero() {
		t.Fatalf("%+v", a)
	}
	if run.Result("again", "ext").Status != "skipped" {
		t.Fatal("skip ignored")
	}
	ext := run.Result("fill", "ext")
	if len(ext.Records) != 0 || len(ext.Lines) != 2 {
		t.Fatalf("external engine: %+v", ext)
	}
	if !strings.Contains(strings.Join(ext.Command, " "), "--undefok=") || !strings.Contains(strings.Join(a.Command, " "), "--engine=native") {
		t.Fatalf("commands %v / %v", ext.Command, a.Command)
	}
	if !strings.Contains(strings.Join(run.Result("again", "a").Command, " "), "--use_existing_db=1") {
		t.Fatal("existing_db pass must reuse the DB")
	}
	if len(run.Mismatches) != 0 {
		t.Fatal(run.Mismatches)
	}
	if a.Version != "Fake 1.2.3" || len(a.Warnings) != 1 || a.Failed() || a.Failure != "" {
		t.Fatalf("version %q, warnings %q, failure %q", a.Version, a.Warnings, a.Failure)
	}
	if b := run.Binaries[fake]; b.Path != fake || b.Error == "" || len(run.Binaries) != 1 {
		t.Fatalf("binaries %+v", run.Binaries)
	}
	if run.Host.Filesystem == "" || run.Benchsuite.GoVersion == "" {
		t.Fatalf("host %+v, benchsuite %+v", run.Host, run.Benchsuite)
	}
	if !strings.Contains(progress.String(), "[1/6] fill on a: ok") {
		t.Fatalf("progress:\n%s", progress.String())
	}
}

func TestChecksumMismatchNamesPassAndValues(t *testing.T) {
	s := fakeSuite(t, "  - {name: a, engine: native}\n  - {name: b, engine: odd}\n", "")
	run, err := Execute(s, fakeBins(t), &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Mismatches) != 2 || !strings.Contains(run.Mismatches[0], "pass fill, readrandom#1: checksum 00000000000000AA on a but 00000000000000BB on b") {
		t.Fatalf("%v", run.Mismatches)
	}
}

func TestCrashAndTimeoutAreReported(t *testing.T) {
	s := fakeSuite(t, "  - {name: a, engine: native}\n", "")
	os.Setenv("FAKE_EXIT", "3")
	run, err := Execute(s, fakeBins(t), &strings.Builder{})
	os.Unsetenv("FAKE_EXIT")
	if err != nil {
		t.Fatal(err)
	}
	if pr := run.Result("fill", "a"); pr.Status != "exit 3" || !pr.Failed() || !strings.Contains(pr.Failure, "readrandom") {
		t.Fatalf("status %q, failure %q", pr.Status, pr.Failure)
	}
	s.Timeout = 300e6 // 0.3 s
	os.Setenv("FAKE_SLEEP", "5")
	run, err = Execute(s, fakeBins(t), &strings.Builder{})
	os.Unsetenv("FAKE_SLEEP")
	if err != nil {
		t.Fatal(err)
	}
	if pr := run.Result("fill", "a"); pr.Status != "timed out" || !strings.HasPrefix(pr.Failure, "killed after ") {
		t.Fatalf("status %q, failure %q", pr.Status, pr.Failure)
	}
}

// TestBenchmarkErrorFailsThePass: a benchmark that reports an error fails
// its pass even when the process exits 0.
func TestBenchmarkErrorFailsThePass(t *testing.T) {
	s := fakeSuite(t, "  - {name: a, engine: native}\n", "")
	t.Setenv("FAKE_PUT_ERROR", "IO error: No space left on device")
	run, err := Execute(s, fakeBins(t), &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	pr := run.Result("fill", "a")
	if pr.Status != "benchmark error" || pr.Failure != "put error: IO error: No space left on device" || pr.OK() {
		t.Fatalf("status %q, failure %q", pr.Status, pr.Failure)
	}
}

func TestFilesystemOf(t *testing.T) {
	if fs := filesystemOf("/proc/self"); fs != "proc on /proc" {
		t.Errorf("filesystemOf(/proc/self) = %q", fs)
	}
}

func TestPlanListsCommandsWithoutRunning(t *testing.T) {
	fake, _ := filepath.Abs("testdata/fake_db_bench.sh")
	s := fakeSuite(t, "  - {name: a, engine: native}\n  - {name: ext, binary: "+fake+"}\n", "ext")
	plan := Plan(s, fakeBins(t))
	if len(plan) != 4 || !plan[3].Skipped || plan[3].Pass != "again" || plan[3].Engine != "ext" {
		t.Fatalf("%+v", plan)
	}
	cmd := strings.Join(plan[1].Command, " ")
	if !strings.Contains(cmd, "--db=SCRATCH/a/fill") || !strings.Contains(cmd, "--use_existing_db=1") || !strings.Contains(cmd, "--report_json=RUN/raw/again-a.jsonl") {
		t.Fatalf("command %s", cmd)
	}
	if ents, _ := os.ReadDir(s.Output); len(ents) != 0 {
		t.Fatalf("Plan wrote %d entries into the output folder", len(ents))
	}
}

// TestSourceRevisionFillsUnstampedBuilds: a Go binary without vcs.revision
// takes the revision benchsuite read from the tree it built it from; a
// binary that is not Go's does not.
func TestSourceRevisionFillsUnstampedBuilds(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	fake, _ := filepath.Abs("testdata/fake_db_bench.sh")
	s := fakeSuite(t, "  - {name: a, engine: native}\n", "")
	builds := binaryBuilds(s, Binaries{DBBench: self, MemtablerepBench: fake, Source: &SourceRevision{Revision: "abc", Modified: true}})
	if b := builds[self]; b.Module == "" || b.Revision == "" || (b.Revision == "abc" && !b.Modified) {
		t.Errorf("test binary build %+v", b)
	}
	if b, ok := builds[fake]; ok && b.Revision != "" {
		t.Errorf("the shell script got a revision: %+v", b)
	}
}

// TestSanitizeStaysInside: every name, however written, becomes one path
// element strictly inside the directory it is joined to, so removing an
// engine's scratch directory never removes the scratch root or its parent.
func TestSanitizeStaysInside(t *testing.T) {
	root := filepath.Join(t.TempDir(), "scratch")
	for _, name := range []string{".", "..", "...", "../x", "a/../..", "/etc", ".hidden", "", "ok-name_1.2"} {
		got := filepath.Join(root, sanitize(name))
		if filepath.Dir(got) != root || got == root {
			t.Errorf("sanitize(%q) = %q: joined to %s gives %s", name, sanitize(name), root, got)
		}
	}
	if got := sanitize("ok-name_1.2"); got != "ok-name_1.2" {
		t.Errorf("sanitize changed a plain name: %q", got)
	}
}
