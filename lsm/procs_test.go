package lsm

import (
	"runtime"
	"testing"
)

// TestProcsFollowGOMAXPROCS checks that the write path's copy of GOMAXPROCS
// is taken at Open, kept while the memtable lives, and refreshed when a
// memtable switch makes the next one.
func TestProcsFollowGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	db := mustOpen(t, t.TempDir(), testOptions())
	defer db.Close()
	if got := db.maxProcs(); got != 3 {
		t.Fatalf("after Open: maxProcs %d, want 3", got)
	}
	runtime.GOMAXPROCS(5)
	put(t, db, "k", "v")
	if got := db.maxProcs(); got != 3 {
		t.Fatalf("before a switch: maxProcs %d, want 3 (the copy from Open)", got)
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := db.maxProcs(); got != 5 {
		t.Fatalf("after a memtable switch: maxProcs %d, want 5", got)
	}
}
