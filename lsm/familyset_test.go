package lsm

import (
	"bytes"
	"fmt"
	"os"
	"testing"
)

// TestOpenRefusesUnopenedFamilies: a DB whose MANIFEST holds families
// besides the default does not open, read-write or read-only, without
// them, in RocksDB's words, and the refused open changes no file.
func TestOpenRefusesUnopenedFamilies(t *testing.T) {
	dir := t.TempDir()
	var records [][]byte
	for _, text := range []string{
		"next-file 6\nlast-seq 0",
		"family 2\nadd-family second\nmax-family 2",
		"family 1\nadd-family first",
	} {
		records = append(records, parseEdit(t, text).encode(nil))
	}
	writeManifest(t, dir, records, false, -1)
	before := dirListing(t, dir)
	for _, readOnly := range []bool{false, true} {
		o := testOptions()
		o.ReadOnly = readOnly
		db, err := Open(dir, o, Config{})
		if err == nil {
			db.Close()
			t.Fatalf("read-only %v: Open succeeded", readOnly)
		}
		if want := "Invalid argument: Column families not opened: first, second"; err.Error() != want {
			t.Fatalf("read-only %v: Open = %v, want %q", readOnly, err, want)
		}
	}
	if after := dirListing(t, dir); after != before {
		t.Fatalf("a refused open changed the directory from %s to %s", before, after)
	}
}

// dirListing lists dir's names with their sizes, LOCK aside.
func dirListing(t *testing.T, dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, e := range entries {
		if e.Name() == lockName {
			continue
		}
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s:%d ", e.Name(), info.Size())
	}
	return b.String()
}
