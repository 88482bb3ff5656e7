package lsm

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// familyBlobFiles lists the blob files that family h's current version
// lists.
func familyBlobFiles(db *DB, h *ColumnFamily) []uint64 {
	db.mu.Lock()
	defer db.mu.Unlock()
	var nums []uint64
	for n := range h.f.current.blobs {
		nums = append(nums, n)
	}
	return nums
}

// TestFamilyBlobFilesSurviveReopen: the blob files that a flush of a
// family other than the default writes are that family's live files, so a
// reopen keeps them (it deleted them as unlisted by the default family's
// version) and the MANIFEST the reopen writes lists them (a second reopen
// finds them). Values and iterators of every family read back after each
// reopen.
func TestFamilyBlobFilesSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Version: "test", ColumnFamilies: familyNamesForTest}
	db, handles := openFamiliesWith(t, dir, blobTestOptions(nil), cfg)
	model := familyModel{{}, {}, {}}
	for i := range 60 {
		b := NewBatch()
		for fam := 1; fam < len(handles); fam++ {
			k, v := fmt.Sprintf("key%04d", i), fmt.Sprintf("%d-%s", fam, blobValue(i, fam))
			b.PutCF(handles[fam].ID(), []byte(k), []byte(v))
			model[fam][k] = v
		}
		if err := db.Write(b, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	written := familyBlobFiles(db, handles[1])
	if len(written) == 0 {
		t.Fatalf("family %s wrote no blob file (files: %v)", handles[1].Name(), blobFilesIn(t, dir))
	}
	model.check(t, handles, "before reopen")
	for round := range 2 {
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		db, handles = openFamiliesWith(t, dir, blobTestOptions(nil), cfg)
		when := fmt.Sprintf("reopen %d", round+1)
		for _, num := range written {
			checkExists(t, blobName(dir, num), true)
		}
		if got := familyBlobFiles(db, handles[1]); len(got) != len(written) {
			t.Fatalf("%s: family %s lists blob files %v, wrote %v", when, handles[1].Name(), got, written)
		}
		model.check(t, handles, when)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestBlobFilesRefuseRTable: a DB holding blob files opened for writing
// with table_format=rtable fails (its compactions would put blob indexes
// in rtable tables, whose scans skip them) and deletes nothing; opened
// with the block format again it reads back every value.
func TestBlobFilesRefuseRTable(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, blobTestOptions(nil))
	writeGeneration(t, db, 40, 1)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	before := dirNames(t, dir)
	o := testOptions()
	o.TableFormat = options.TableFormatRTable
	_, err := Open(dir, o, Config{Version: "test"})
	if err == nil || !strings.HasPrefix(err.Error(), "Invalid argument: ") || !strings.Contains(err.Error(), "table_format=block") {
		t.Fatalf("open with rtable tables: %v, want Invalid argument naming table_format=block", err)
	}
	if after := dirNames(t, dir); !slices.Equal(before, after) {
		t.Fatalf("the refused open changed the directory: %v, then %v", before, after)
	}
	db = mustOpen(t, dir, testOptions())
	defer db.Close()
	for i := range 40 {
		if v, ok := getString(t, db, fmt.Sprintf("key%04d", i)); !ok || v != blobValue(i, 1) {
			t.Fatalf("key%04d: %.20q, found %v after the refused open", i, v, ok)
		}
	}
}
