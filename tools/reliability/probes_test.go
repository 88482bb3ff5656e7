package reliability

import (
	"os"
	"path/filepath"
	"testing"
)

// The crash loop counts acknowledged writes an engine loses.
func TestCrashLoopCatchesLostWrites(t *testing.T) {
	skipShort(t)
	r := RunCrashLoop(CrashLoop{Engine: "test-lagging", Config: Config{Sync: true}, Cycles: 2, Seed: 7, Dir: t.TempDir()})
	if r.LostWrites == 0 {
		t.Fatalf("an engine that acknowledges before writing lost nothing: %+v", r)
	}
}

// The corruption matrix counts a panic in the verifier as a crash, and
// goes on with the other trials.
// The directories it made are gone afterwards, and nothing of the
// caller's in Dir is touched, even under the names it uses.
func TestMatrixCatchesCrashes(t *testing.T) {
	skipShort(t)
	dir := t.TempDir()
	for _, sub := range []string{"trial", "template"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, sub, "mine.txt"), []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := RunMatrix(Matrix{Engine: "test-panicky", Seed: 7, Dir: dir})
	if r.Err != "" {
		t.Fatal(r.Err)
	}
	if left, err := listFiles(dir); err != nil || len(left) != 0 {
		t.Fatalf("files left in Dir's top level: %v %v", left, err)
	}
	for _, sub := range []string{"trial", "template"} {
		if b, err := os.ReadFile(filepath.Join(dir, sub, "mine.txt")); err != nil || string(b) != "keep" {
			t.Fatalf("the caller's %s/mine.txt: %q %v", sub, b, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Fatalf("directories left in Dir: %v", ents)
	}
	c := r.Counts()
	if c[KindCurrent][Crash] == 0 {
		t.Fatalf("deleting CURRENT under a panicking engine: %v, want a crash", c[KindCurrent])
	}
	if c[KindTable][Crash] != 0 || len(r.Trials) < 10 {
		t.Fatalf("the other trials did not run on: %d trials, table outcomes %v", len(r.Trials), c[KindTable])
	}
}

// A bad-input run reports the exit status, the explaining line, and the
// files the command destroyed.
func TestBadInputReportsLostFiles(t *testing.T) {
	p := BadInput{
		Args: []string{"d/notes.txt"},
		Setup: func(sb string, _ func(...string) error) error {
			return keep(sb, "d/notes.txt", "d/kept.txt")
		},
		Check: mustStay("d/notes.txt", "d/kept.txt"),
	}
	sh := Tool{Bin: "/bin/sh", Args: []string{"-c", `rm -f "$0"; echo progress; echo "Invalid argument: $0" >&2; exit 3`}}
	r := RunBadInput(p, sh, t.TempDir())
	if r.Exit != "3" || r.Message != "Invalid argument: d/notes.txt" || r.Lost != "d/notes.txt" {
		t.Fatalf("got %+v", r)
	}
}

// A locked database file stays locked for the command: a second lock
// attempt from another process fails.
func TestHoldLockBlocksOthers(t *testing.T) {
	dir := t.TempDir()
	lock := filepath.Join(dir, "LOCK")
	release, err := holdLock(lock)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if _, err := os.Stat("/usr/bin/flock"); err != nil {
		t.Skip("no flock(1) to try the lock from another process")
	}
	sh := Tool{Bin: "/usr/bin/flock", Args: []string{"-n", lock, "true"}}
	if r := RunBadInput(BadInput{}, sh, dir); r.Exit == "0" {
		t.Fatalf("flock -n on a held LOCK succeeded: %+v", r)
	}
}
