package lsm

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"testing"
)

// TestOpenRefusesUnopenedFamilies: a DB whose MANIFEST holds families
// besides the default does not open read-write without them, in
// RocksDB's words; read-only, as RocksDB's OpenForReadOnly, it opens with
// any of them but not with a family it lacks. No open changes a file.
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
	for _, c := range []struct {
		readOnly bool
		names    []string
		want     string // "": the open succeeds
	}{
		{false, nil, "Invalid argument: Column families not opened: first, second"},
		{false, []string{"second"}, "Invalid argument: Column families not opened: first"},
		{true, nil, ""},
		{true, []string{"second"}, ""},
		{true, []string{"first", "third"}, "Invalid argument: Column family not found: third"},
	} {
		o := testOptions()
		o.ReadOnly = c.readOnly
		db, err := Open(dir, o, Config{ColumnFamilies: c.names})
		if c.want != "" {
			if err == nil {
				db.Close()
				t.Fatalf("read-only %v %v: Open succeeded", c.readOnly, c.names)
			}
			if err.Error() != c.want {
				t.Fatalf("read-only %v %v: Open = %v, want %q", c.readOnly, c.names, err, c.want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("read-only %v %v: Open = %v", c.readOnly, c.names, err)
		}
		for _, name := range []string{"first", "second"} {
			if open := db.ColumnFamily(name) != nil; open != slices.Contains(c.names, name) {
				t.Errorf("read-only %v: family %s open %v, named %v", c.readOnly, name, open, c.names)
			}
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if after := dirListing(t, dir); after != before {
		t.Fatalf("an open changed the directory from %s to %s", before, after)
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
