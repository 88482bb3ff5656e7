package dbbench_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOracleBadOptionsFiles runs every bad OPTIONS file of
// options/testdata/bad that C++ db_bench 7.8.3 also rejects (all but the
// ours_* files) through both drivers: exit code, stdout and stderr must be
// the same.
func TestOracleBadOptionsFiles(t *testing.T) {
	requireOracle(t)
	files, err := filepath.Glob(filepath.Join("..", "options", "testdata", "bad", "*.ini"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no bad OPTIONS files: %v", err)
	}
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "ours_") {
			continue
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"--seed=1", "--benchmarks=fillseq", "--num=10", "--options_file=" + abs}
		want := runOracleFull(t, args)
		if want.code != 1 {
			t.Errorf("%s: C++ db_bench exit %d; the file belongs under an ours_ name", f, want.code)
		}
		for _, engine := range oracleEngines() {
			if got := runOursFull(t, engine, args); got != want {
				t.Errorf("%s/%s: exit %d stdout %q stderr %q\nC++ db_bench: exit %d stdout %q stderr %q",
					filepath.Base(f), engine, got.code, got.stdout, got.stderr, want.code, want.stdout, want.stderr)
			}
		}
	}
}
