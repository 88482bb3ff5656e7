package lsm

import (
	"fmt"
	"runtime"
	"testing"
)

// TestGroupInsertHelpers writes from many goroutines at once, so that
// commit groups form, with 1, 2 and 4 procs (no helper, one, three): every
// batch of every group must reach the memtable, whichever goroutine took
// it, with its own value.
func TestGroupInsertHelpers(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		t.Run(fmt.Sprint(procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			o := testOptions()
			o.AllowConcurrentMemtableWrite = true
			db := mustOpen(t, t.TempDir(), o)
			defer db.Close()
			if got := db.maxProcs(); got != procs {
				t.Fatalf("the write path sees %d procs, want %d", got, procs)
			}
			const writers, writes = 8, 400
			err := writeFromGoroutines(db, writers, writes, func(b *Batch, w, i int) WriteOptions {
				b.Put([]byte(fmt.Sprintf("w%d-%04d", w, i)), []byte(fmt.Sprintf("v%d-%d", w, i)))
				return WriteOptions{}
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for w := range writers {
				for i := range writes {
					key, want := fmt.Sprintf("w%d-%04d", w, i), fmt.Sprintf("v%d-%d", w, i)
					if got, ok := getString(t, db, key); !ok || got != want {
						t.Fatalf("%s = %q, %v; want %q", key, got, ok, want)
					}
				}
			}
			metrics, err := db.Metrics()
			if err != nil {
				t.Fatal(err)
			}
			m := metrics.Writes
			t.Logf("%d writes in %d groups", m.Writes, m.CommitGroups)
			if m.Writes != writers*writes {
				t.Fatalf("%d writes counted, want %d", m.Writes, writers*writes)
			}
		})
	}
}
