package lsm

import (
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestNextWALMadeAhead: a logged write has the next WAL made in the
// background; the switch takes that file, and Close removes the one made
// ahead and not used.
func TestNextWALMadeAhead(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, testOptions())
	waitNext := func() uint64 {
		db.mu.Lock()
		defer db.mu.Unlock()
		for db.mu.nextWAL.making {
			db.bgCond.Wait()
		}
		if db.mu.nextWAL.err != nil {
			t.Fatal(db.mu.nextWAL.err)
		}
		return db.mu.nextWAL.num
	}
	put(t, db, "a", "1")
	next := waitNext()
	if next <= db.mu.logNum {
		t.Fatalf("WAL made ahead numbered %d, the active one %d", next, db.mu.logNum)
	}
	if _, err := os.Stat(walName(dir, next)); err != nil {
		t.Fatalf("WAL made ahead: %v", err)
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if db.mu.logNum != next {
		t.Fatalf("the switch made WAL %d, not the one made ahead, %d", db.mu.logNum, next)
	}
	put(t, db, "b", "2")
	unused := waitNext()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(walName(dir, unused)); !os.IsNotExist(err) {
		t.Fatalf("WAL %d, made ahead and not used, left by Close: %v", unused, err)
	}
	if logs := walFiles(t, dir); len(logs) != 1 {
		t.Fatalf("WAL files after Close: %v, want the active one", logs)
	}
	db = mustOpen(t, dir, testOptions())
	defer db.Close()
	for k, v := range map[string]string{"a": "1", "b": "2"} {
		if got, ok := getString(t, db, k); !ok || got != v {
			t.Fatalf("%s after reopen: %q %v", k, got, ok)
		}
	}
}

// waitWALAhead returns once no goroutine is making the next WAL.
func waitWALAhead(db *DB) {
	db.mu.Lock()
	defer db.mu.Unlock()
	for db.mu.nextWAL.making {
		db.bgCond.Wait()
	}
}

// slowWALFS makes every WAL file a goroutine creates after Open wait
// before it exists, widening the window in which the next WAL is being made.
type slowWALFS struct {
	FS
	slow atomic.Bool
}

func (f *slowWALFS) Create(name string) (WritableFile, error) {
	if f.slow.Load() && strings.HasSuffix(name, ".log") {
		time.Sleep(50 * time.Millisecond)
	}
	return f.FS.Create(name)
}

// TestWaitForCompactionsWaitsForNextWAL: WaitForCompactions returns only
// once the WAL made ahead exists, so a caller that then compares the
// directory (Destroy's refusal test did) sees no file appear after it.
func TestWaitForCompactionsWaitsForNextWAL(t *testing.T) {
	dir := t.TempDir()
	fs := &slowWALFS{FS: DefaultFS}
	db := mustOpenFS(t, dir, fs, testOptions())
	defer db.Close()
	fs.slow.Store(true)
	put(t, db, "a", "1")
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	db.mu.Lock()
	making, next := db.mu.nextWAL.making, db.mu.nextWAL.num
	db.mu.Unlock()
	if making || next == 0 {
		t.Fatalf("WaitForCompactions returned with the next WAL being made (%v) or not made (number %d)", making, next)
	}
	if _, err := os.Stat(walName(dir, next)); err != nil {
		t.Fatalf("next WAL after WaitForCompactions: %v", err)
	}
}
