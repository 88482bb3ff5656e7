package lsm

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/godbbench/godbbench/internal/fileops"
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

// TestCheckpointLinksWithCountedFiles: with file operations counted
// (--report_file_operations) a checkpoint still hard-links the tables
// rather than copying them.
func TestCheckpointLinksWithCountedFiles(t *testing.T) {
	dir := t.TempDir()
	var c fileops.Counters
	db, err := Open(filepath.Join(dir, "db"), testOptions(), Config{FileOperations: &c})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	put(t, db, "k", "v")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(dir, "cp")
	if err := db.Checkpoint(cp); err != nil {
		t.Fatal(err)
	}
	tables := filesOf(t, cp, fileTable)
	if len(tables) == 0 {
		t.Fatal("the checkpoint holds no table")
	}
	for _, name := range tables {
		var st syscall.Stat_t
		if err := syscall.Stat(name, &st); err != nil {
			t.Fatal(err)
		}
		if st.Nlink < 2 {
			t.Errorf("%s has %d link: copied, not linked", filepath.Base(name), st.Nlink)
		}
	}
}
