package lsm

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestCloseLetsStalledWriterThrough: a writer stalled at the L0 stop
// trigger when Close begins gets through, since Close keeps compactions
// scheduled until the writes in flight have finished; before, Close
// stopped scheduling first and both waited for ever.
func TestCloseLetsStalledWriterThrough(t *testing.T) {
	o := testOptions()
	o.Level0FileNumCompactionTrigger = 2
	o.Level0SlowdownWritesTrigger = 0
	o.Level0StopWritesTrigger = 2
	dir := t.TempDir()
	db := mustOpen(t, dir, o)
	// Hold compactions, as a long manual one does, while L0 fills up to
	// the stop trigger.
	db.mu.Lock()
	db.mu.manualRunning = true
	db.mu.Unlock()
	for _, k := range []string{"a", "b"} {
		put(t, db, k, k)
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	wrote := make(chan error, 1)
	go func() {
		b := NewBatch()
		b.Put([]byte("c"), []byte("c"))
		wrote <- db.Write(b, WriteOptions{})
	}()
	waitFor(t, db, "the writer queued", func() bool { return db.mu.writers.len() == 1 })
	closed := make(chan error, 1)
	go func() { closed <- db.Close() }()
	waitFor(t, db, "Close to begin", func() bool { return db.mu.closing })
	db.mu.Lock()
	db.mu.manualRunning = false
	db.maybeScheduleCompaction()
	db.bgCond.Broadcast()
	db.mu.Unlock()
	for what, ch := range map[string]chan error{"the stalled write": wrote, "Close": closed} {
		select {
		case err := <-ch:
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s did not return in 20 s", what)
		}
	}
	db = mustOpen(t, dir, o)
	defer db.Close()
	if v, ok := getString(t, db, "c"); !ok || v != "c" {
		t.Fatalf("the stalled write after reopening: %q, %v", v, ok)
	}
}

// TestCloseKeepsUnloggedWritesInFlight: writes that skip the WAL and are
// acknowledged while Close runs are flushed by it. Before, a write that
// landed in the memtable after Close's flush had switched it was dropped.
func TestCloseKeepsUnloggedWritesInFlight(t *testing.T) {
	o := testOptions()
	for round := range 5 {
		dir := t.TempDir()
		db := mustOpen(t, dir, o)
		acked := make(chan int, 1)
		go func() {
			last := -1
			defer func() { acked <- last }()
			for i := 0; ; i++ {
				b := NewBatch()
				b.Put([]byte(fmt.Sprintf("k%07d", i)), []byte("v"))
				if err := db.Write(b, WriteOptions{DisableWAL: true}); err != nil {
					if !errors.Is(err, ErrClosed) {
						t.Errorf("write %d: %v", i, err)
					}
					return
				}
				last = i
			}
		}()
		time.Sleep(time.Duration(5+round*3) * time.Millisecond)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		last := <-acked
		db = mustOpen(t, dir, o)
		for i := 0; i <= last; i++ {
			if _, ok := getString(t, db, fmt.Sprintf("k%07d", i)); !ok {
				db.Close()
				t.Fatalf("round %d: acknowledged write %d of %d lost by Close", round, i, last+1)
			}
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCreateColumnFamilyRefusedWhileClosing: a family created after Close
// took its list of families would never be closed (its memtable and table
// readers leaked), so creation is refused from the moment Close begins.
func TestCreateColumnFamilyRefusedWhileClosing(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	db.mu.Lock()
	db.mu.closing = true
	db.mu.Unlock()
	_, err := db.CreateColumnFamily("late")
	db.mu.Lock()
	db.mu.closing = false
	db.mu.Unlock()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("CreateColumnFamily while closing: %v, want ErrClosed", err)
	}
}
