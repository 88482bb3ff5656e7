package lsm

import (
	"fmt"
	"testing"
)

// TestSplitInsertLargeBatch commits batches large enough to be inserted by
// two goroutines, with the same key written twice and deleted within one
// batch, on every memtable rep, and checks the newest write wins.
func TestSplitInsertLargeBatch(t *testing.T) {
	for _, rep := range []string{"skip_list", "offset_skiplist", "cspp"} {
		t.Run(rep, func(t *testing.T) {
			o := testOptions()
			o.WriteBufferSize = 4 << 20
			o.Memtablerep = rep
			db := mustOpen(t, t.TempDir(), o)
			defer db.Close()
			const n = 3 * splitInsertMin
			b := NewBatch()
			for round := range 3 {
				b.Reset()
				for i := range n {
					k := []byte(fmt.Sprintf("k%05d", i))
					switch {
					case i%7 == 0:
						b.Put(k, []byte("old"))
						b.Put(k, []byte(fmt.Sprintf("v%d-%d", round, i)))
					case i%11 == 0:
						b.Put(k, []byte("gone"))
						b.Delete(k)
					default:
						b.Put(k, []byte(fmt.Sprintf("v%d-%d", round, i)))
					}
				}
				if !db.canSplit(b) {
					t.Fatalf("a %d-record batch should be split", b.Count())
				}
				if err := db.Write(b, WriteOptions{}); err != nil {
					t.Fatal(err)
				}
				for i := range n {
					k := fmt.Sprintf("k%05d", i)
					got, found := getString(t, db, k)
					want := fmt.Sprintf("v%d-%d", round, i)
					if i%7 != 0 && i%11 == 0 {
						if found {
							t.Fatalf("round %d: %s = %q after its delete", round, k, got)
						}
						continue
					}
					if !found || got != want {
						t.Fatalf("round %d: %s = %q (found %v), want %q", round, k, got, found, want)
					}
				}
			}
			visible := 0
			it, err := db.NewIter(nil)
			if err != nil {
				t.Fatal(err)
			}
			for ok := it.First(); ok; ok = it.Next() {
				visible++
			}
			if err := it.Close(); err != nil {
				t.Fatal(err)
			}
			want := 0
			for i := range n {
				if i%7 == 0 || i%11 != 0 {
					want++
				}
			}
			if visible != want {
				t.Fatalf("iterator saw %d keys, want %d", visible, want)
			}
		})
	}
}
