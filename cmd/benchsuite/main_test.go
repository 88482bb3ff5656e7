package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHelpExitsZeroAndNamesTheSuiteFile(t *testing.T) {
	var out, errb strings.Builder
	if code := run([]string{"-help"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"usage: benchsuite [flags] SUITE.yaml...", "-dry_run", "-engines", "docs/SUITES.md"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, out.String())
		}
	}
	if code := run(nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "no suite file given") {
		t.Fatalf("no suite: exit %d, %s", code, errb.String())
	}
}

// TestDryRunPrintsSelectedCommands runs nothing: the binaries need not
// exist, and only the selected engine and passes appear.
func TestDryRunPrintsSelectedCommands(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr strings.Builder
	code := run([]string{"-dry_run", "-db_bench=/nonexistent/db_bench", "-memtablerep_bench=/nonexistent/memtablerep_bench",
		"-output=" + out, "-engines=native", "-passes=fillrandom,fillrandom-omit", "../../testdata/suites/smoke.yaml"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got := stdout.String()
	for _, want := range []string{"# pass fillrandom on native\n/nonexistent/db_bench --engine=native", "# pass fillrandom-omit on native\n", "--db=SCRATCH/native/fillrandom"} {
		if !strings.Contains(got, want) {
			t.Errorf("dry run lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "pebble") {
		t.Errorf("dry run shows an engine that was not selected:\n%s", got)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 0 {
		t.Errorf("a dry run wrote %d entries to the output folder", len(ents))
	}
	if code := run([]string{"-dry_run", "-db_bench=x", "-memtablerep_bench=y", "-engines=nope", "../../testdata/suites/smoke.yaml"}, &stdout, &stderr); code != 2 {
		t.Errorf("unknown engine: exit %d", code)
	}
}

// TestBuildsIntoTheCacheFolder builds db_bench from the module into -cache,
// not the working tree.
func TestBuildsIntoTheCacheFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds db_bench; skipped in -short mode")
	}
	cache := t.TempDir()
	var errb strings.Builder
	got, err := binary("", "db_bench", &options{cache: cache}, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if want := filepath.Join(cache, "notags", "db_bench"); got != want {
		t.Fatalf("built %s, want %s", got, want)
	}
	if _, err := os.Stat(got); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("db_bench"); err == nil {
		t.Fatal("a db_bench binary appeared in the working tree")
	}
	if src := gitRevision("."); src != nil && len(src.Revision) != 40 {
		t.Errorf("git revision %+v", src)
	}
}
