package lsm

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckpointOpensWithItsWrites: a checkpoint taken between two rounds
// of writes (some flushed and compacted, some only in the memtable) opens
// holding the first round exactly, while the DB goes on with the second.
func TestCheckpointOpensWithItsWrites(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, filepath.Join(dir, "db"), testOptions())
	for i := 0; i < 300; i++ {
		put(t, db, fmt.Sprintf("key%04d", i), fmt.Sprintf("v%d", i))
		if i == 150 {
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
			if err := db.Compact(nil, nil, -1); err != nil {
				t.Fatal(err)
			}
		}
	}
	del(t, db, "key0007")
	cp := filepath.Join(dir, "cp")
	if err := db.Checkpoint(cp); err != nil {
		t.Fatal(err)
	}
	if err := db.Checkpoint(cp); err == nil {
		t.Fatal("a second checkpoint into the same directory succeeded")
	}
	put(t, db, "key0000", "changed")
	put(t, db, "later", "x")
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(cp, "CURRENT")); err != nil {
		t.Fatal(err)
	}

	copyDB := mustOpen(t, cp, testOptions())
	defer copyDB.Close()
	for i := 0; i < 300; i++ {
		got, found := getString(t, copyDB, fmt.Sprintf("key%04d", i))
		want := fmt.Sprintf("v%d", i)
		if i == 7 {
			if found {
				t.Fatalf("deleted key0007 found in the checkpoint: %q", got)
			}
			continue
		}
		if !found || got != want {
			t.Fatalf("key%04d in the checkpoint: %q %v, want %q", i, got, found, want)
		}
	}
	if _, found := getString(t, copyDB, "later"); found {
		t.Fatal("a write after the checkpoint is in it")
	}
	put(t, copyDB, "new", "y") // the copy is a DB of its own
}
