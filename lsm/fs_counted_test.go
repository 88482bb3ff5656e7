package lsm

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/godbbench/godbbench/internal/fileops"
)

// TestFileOperationsOfSyncedWrites: each synced write is one append to
// the WAL and one sync of it: an fdatasync (Sync()) for the mapped WAL,
// an fsync (Fsync()) for one written with write(2); a Get of a flushed
// key reads the table, whose open and close are counted.
func TestFileOperationsOfSyncedWrites(t *testing.T) {
	for _, mapped := range []bool{false, true} {
		if mapped && runtime.GOOS != "linux" {
			continue
		}
		var c fileops.Counters
		o := testOptions()
		o.MmapWrite = mapped
		o.CacheSize = 0
		db, err := Open(t.TempDir(), o, Config{FileOperations: &c})
		if err != nil {
			t.Fatal(err)
		}
		c.Report() // what the open did
		const writes = 10
		for i := range writes {
			b := NewBatch()
			b.Put(fmt.Appendf(nil, "key%02d", i), []byte("value"))
			if err := db.Write(b, WriteOptions{Sync: true}); err != nil {
				t.Fatal(err)
			}
		}
		syncs, fsyncs := c.Syncs.Load(), c.Fsyncs.Load()
		if !mapped {
			syncs, fsyncs = fsyncs, syncs
		}
		if c.Appends.Load() != writes || syncs != writes || fsyncs != 0 || c.BytesWritten.Load() == 0 {
			t.Fatalf("mapped=%v: %d synced writes counted as %d appends of %d bytes, %d Sync(), %d Fsync()",
				mapped, writes, c.Appends.Load(), c.BytesWritten.Load(), c.Syncs.Load(), c.Fsyncs.Load())
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
		opened := c.Opens.Load()
		if _, ok := getString(t, db, "key03"); !ok {
			t.Fatal("key03 not found after the flush")
		}
		if c.Reads.Load() == 0 || c.BytesRead.Load() == 0 {
			t.Fatalf("mapped WAL=%v: a Get from a table read nothing", mapped)
		}
		if opened == 0 {
			t.Fatal("the flush opened no file")
		}
		closed := c.Closes.Load()
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if c.Closes.Load() <= closed {
			t.Fatal("Close closed no file")
		}
	}
}
