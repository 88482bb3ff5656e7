package lsm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInfoLogWritten: Open writes LOG with the version line that
// tools/benchmark.sh reads (field 5 of "RocksDB version:").
func TestInfoLogWritten(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir, testOptions(), Config{Version: "9.9.9"})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	b, err := os.ReadFile(filepath.Join(dir, logName))
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	if f := strings.Fields(line); len(f) != 5 || f[2]+" "+f[3] != "RocksDB version:" || f[4] != "9.9.9" {
		t.Fatalf("LOG's first line %q", line)
	}
}

// TestInfoLogSymlinkNotFollowed: a LOG that is a symbolic link is not
// written through at open (creating it would truncate the target): the
// target keeps its bytes and the DB opens.
func TestInfoLogSymlinkNotFollowed(t *testing.T) {
	dir, target := t.TempDir(), filepath.Join(t.TempDir(), "mine.txt")
	if err := os.WriteFile(target, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, logName)); err != nil {
		t.Fatal(err)
	}
	db := mustOpen(t, dir, testOptions())
	put(t, db, "a", "1")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "mine" {
		t.Fatalf("LOG's target after an open: %q, %v", b, err)
	}
}
