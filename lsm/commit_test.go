package lsm

import (
	"fmt"
	"runtime"
	"testing"
)

// TestEveryGroupHandsOffEarly: with enable_pipelined_write and
// allow_concurrent_memtable_write every commit group hands the writer queue
// on before it inserts, a lone batch split between two goroutines and a
// group that writes its WAL from a second goroutine included; without
// pipelining none does. A lone writer never finds a writer queued.
func TestEveryGroupHandsOffEarly(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for _, pipelined := range []bool{true, false} {
		t.Run(fmt.Sprint(pipelined), func(t *testing.T) {
			o := testOptions()
			o.WriteBufferSize = 1 << 20
			o.EnablePipelinedWrite, o.AllowConcurrentMemtableWrite = pipelined, true
			db := mustOpen(t, t.TempDir(), o)
			defer db.Close()
			b := NewBatch()
			for i, c := range []struct{ records, value int }{{1, 100}, {splitInsertMin, 8}, {8, walOverlapBytes / 4}} {
				b.Reset()
				for r := range c.records {
					b.Put([]byte(fmt.Sprintf("k%d-%04d", i, r)), make([]byte, c.value))
				}
				if c.records >= splitInsertMin && !db.canSplit(b) {
					t.Fatalf("a batch of %d records should be split", c.records)
				}
				if err := db.Write(b, WriteOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			m, err := db.Metrics()
			if err != nil {
				t.Fatal(err)
			}
			w := m.Writes
			want := uint64(0)
			if pipelined {
				want = w.CommitGroups
			}
			if w.CommitGroups != 3 || w.EarlyHandOffs != want {
				t.Fatalf("%d of %d groups handed off early, want %d of 3", w.EarlyHandOffs, w.CommitGroups, want)
			}
			if w.QueuedHandOffs != 0 || w.WakesPolling+w.WakesParked != 0 {
				t.Fatalf("a lone writer found %d writers queued and woke %d+%d", w.QueuedHandOffs, w.WakesPolling, w.WakesParked)
			}
		})
	}
}
