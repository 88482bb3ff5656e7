package pebble

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInfoLogNamesTheEngine: a read-write open leaves a LOG whose first
// "RocksDB version:" line has the engine's version as its fifth field,
// where tools/benchmark.sh reads it; Destroy deletes that LOG.
func TestInfoLogNamesTheEngine(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	db := openTest(t, testOptions())(dir)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, infoLogName))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(first)
	want := "pebble-" + strings.TrimPrefix(moduleVersion(), "v")
	if len(f) < 5 || f[2] != "RocksDB" || f[3] != "version:" || f[4] != want {
		t.Fatalf("LOG's first line %q: want field 5 %q", first, want)
	}
	if err := (Opener{}).Destroy(dir, testOptions()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("after Destroy the directory is still there (%v)", err)
	}
}
