package lsm

import (
	"errors"
	"testing"
)

// TestManifestSyncFailureIsSticky: a MANIFEST sync that fails leaves its
// record in the file, so no edit is written after it: the failed
// CreateColumnFamily's retry fails too (where it succeeded with the same
// family id, and the next open refused the MANIFEST for a family "added
// twice"), and the DB reopens with the family.
func TestManifestSyncFailureIsSticky(t *testing.T) {
	dir := t.TempDir()
	ffs := &failSyncFS{FS: DefaultFS}
	db := mustOpenFS(t, dir, ffs, testOptions())
	db.mu.Lock()
	ffs.failing = manifestName(db.mu.vs.manifestNum)
	db.mu.Unlock()
	if _, err := db.CreateColumnFamily("x"); !errors.Is(err, errSyncFailed) {
		t.Fatalf("CreateColumnFamily with the MANIFEST's sync failing: %v", err)
	}
	db.mu.Lock()
	ffs.failing = ""
	db.mu.Unlock()
	if _, err := db.CreateColumnFamily("x"); !errors.Is(err, errSyncFailed) {
		t.Fatalf("CreateColumnFamily after a failed MANIFEST sync: %v, want the sync's error again", err)
	}
	db.Close()
	db, err := Open(dir, testOptions(), Config{Version: "test", ColumnFamilies: []string{"x"}})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	if db.ColumnFamily("x") == nil {
		t.Fatal("family x not open after the reopen")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}
