package lsm

import (
	"errors"
	"fmt"
	"os"
	"testing"
	"time"
)

func TestWALDirAndDisableWAL(t *testing.T) {
	dir, walDir := t.TempDir(), t.TempDir()
	o := testOptions()
	o.WALDir = walDir
	db := mustOpen(t, dir, o)
	for i := 0; i < 100; i++ {
		b := NewBatch()
		b.Put([]byte(fmt.Sprint("logged", i)), []byte("v"))
		if err := db.Write(b, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		b.Reset()
		b.Put([]byte(fmt.Sprint("unlogged", i)), []byte("v"))
		if err := db.Write(b, WriteOptions{DisableWAL: true}); err != nil {
			t.Fatal(err)
		}
	}
	if logs := filesOf(t, walDir, fileWAL); len(logs) == 0 {
		t.Fatal("no WAL in wal_dir")
	}
	if logs := filesOf(t, dir, fileWAL); len(logs) != 0 {
		t.Fatalf("WALs in the DB dir: %v", logs)
	}
	// Close flushes memtables holding unlogged writes.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, dir, o)
	for i := 0; i < 100; i++ {
		for _, p := range []string{"logged", "unlogged"} {
			if _, ok := getString(t, db, fmt.Sprint(p, i)); !ok {
				t.Fatalf("%s%d lost", p, i)
			}
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := Destroy(dir, o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("dir still there: %v", err)
	}
	// The WAL dir held only WALs, so it is removed with them.
	if _, err := os.Stat(walDir); !os.IsNotExist(err) {
		t.Fatalf("WAL dir still there: %v", err)
	}
}

func TestMinWriteBufferNumberToMerge(t *testing.T) {
	o := testOptions()
	o.MaxWriteBufferNumber = 4
	o.MinWriteBufferNumberToMerge = 3
	o.DisableAutoCompactions = true
	db := mustOpen(t, t.TempDir(), o)
	defer db.Close()
	for i := 0; i < 4000; i++ {
		put(t, db, fmt.Sprintf("key%06d", i), "value-value-value")
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	// Flushes merge at least three memtables, except the forced last one.
	files := levelFiles(t, db)[0]
	if files == 0 || files > 4 {
		t.Fatalf("L0 files: %d", files)
	}
	for i := 0; i < 4000; i += 97 {
		if _, ok := getString(t, db, fmt.Sprintf("key%06d", i)); !ok {
			t.Fatalf("key %d lost", i)
		}
	}
}

// TestSyncWriteWithoutWALRefused: a write asking for Sync with DisableWAL
// fails in RocksDB's words and writes nothing (it had been acknowledged as
// synced with its batch in the memtable alone).
func TestSyncWriteWithoutWALRefused(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	defer db.Close()
	b := NewBatch()
	b.Put([]byte("k"), []byte("v"))
	err := db.Write(b, WriteOptions{Sync: true, DisableWAL: true})
	if !errors.Is(err, ErrSyncWithoutWAL) || err.Error() != "Invalid argument: Sync writes has to enable WAL." {
		t.Fatalf("Sync with DisableWAL: %v", err)
	}
	if _, found := getString(t, db, "k"); found {
		t.Fatal("the refused write is visible")
	}
}

// TestMinWriteBufferNumberToMergeClipped: min_write_buffer_number_to_merge
// above max_write_buffer_number - 1 is clipped to it, as RocksDB clips it:
// writes stop at max_write_buffer_number - 1 immutable memtables, and a
// flush waiting for more never came (every write hung).
func TestMinWriteBufferNumberToMergeClipped(t *testing.T) {
	for _, c := range []struct{ max, merge int }{{2, 2}, {3, 3}, {1, 5}} {
		t.Run(fmt.Sprintf("max=%d,merge=%d", c.max, c.merge), func(t *testing.T) {
			o := testOptions()
			o.MaxWriteBufferNumber, o.MinWriteBufferNumberToMerge = c.max, c.merge
			o.DisableAutoCompactions = true
			db := mustOpen(t, t.TempDir(), o)
			done := make(chan error, 1)
			go func() {
				for i := range 4000 {
					b := NewBatch()
					b.Put([]byte(fmt.Sprintf("key%06d", i)), []byte("value-value-value"))
					if err := db.Write(b, WriteOptions{}); err != nil {
						done <- err
						return
					}
				}
				done <- nil
			}()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(20 * time.Second):
				// Not closed: Close would wait for the stuck writes.
				t.Fatal("writes still waiting after 20 s: no flush came")
			}
			defer db.Close()
			if n := levelFiles(t, db)[0]; n == 0 {
				t.Fatal("no memtable was flushed")
			}
		})
	}
}

func TestTargetLevel(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	defer db.Close()
	for i := 0; i < 2000; i++ {
		put(t, db, fmt.Sprintf("key%06d", i), "value")
	}
	if err := db.Compact(nil, nil, 3); err != nil {
		t.Fatal(err)
	}
	for level, n := range levelFiles(t, db) {
		if (level == 3) != (n != 0) {
			t.Fatalf("level %d has %d files after compacting to level 3", level, n)
		}
	}
}

// TestL0SlowdownCounted: the L0 slowdown is counted as RocksDB counts it,
// once per published version or memtable switch while L0 holds
// level0_slowdown_writes_trigger tables (stallcount.go), not once per
// delayed write: after the second flush (2 tables), the third round's
// switch, and its flush (3 tables), whatever the 50 delayed writes.
func TestL0SlowdownCounted(t *testing.T) {
	db := mustOpen(t, t.TempDir(), l0SlowdownOptions())
	defer db.Close()
	for f := 0; f < 3; f++ {
		for i := 0; i < 50; i++ {
			put(t, db, fmt.Sprintf("key%d-%d", f, i), "v")
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if m, _ := db.Metrics(); m.Stalls.L0Slowdowns != 3 {
		t.Fatalf("%d L0 slowdowns counted, want 3", m.Stalls.L0Slowdowns)
	}
}
