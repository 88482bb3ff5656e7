// Package golden compares test output with files under a package's testdata
// directory.
//
// Contract: Check fails the test when got differs from the file's bytes,
// reporting the first differing line; run the test with -update to rewrite
// the file with got instead. A missing file fails the test and says how to
// create it.
package golden

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/ with the output of the test")

// Check compares got with the file at path (relative to the test's package
// directory), or rewrites the file under -update.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Errorf("%s differs at line %d:\n got %q\nwant %q\n--- got ---\n%s", path, i+1, gl[i], wl[i], got)
			return
		}
	}
	t.Errorf("%s: got %d lines, want %d\n--- got ---\n%s", path, len(gl), len(wl), got)
}
