package lsm

import (
	"testing"
)

// TestMergeGetAllocs: a Get that merges operands from tables or memtables
// allocates nothing once its pooled operand stack has grown (memtables keep
// the iterators such reads walk them with).
func TestMergeGetAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops pooled getters")
	}
	db := openWithMerge(t, t.TempDir(), testOptions(), "stringappendtest")
	defer db.Close()
	for round := 0; round < 3; round++ {
		merge(t, db, "k", "a")
		merge(t, db, "k", "b")
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	key := []byte("k")
	got := make([]byte, 0, 64)
	fn := func(v []byte) { got = append(got[:0], v...) }
	if tables := testing.AllocsPerRun(200, func() { db.Get(key, fn) }); tables != 0 || string(got) != "a,b,a,b,a,b" {
		t.Errorf("merge from tables: %v allocations, value %q", tables, got)
	}
	merge(t, db, "k", "c")
	if mem := testing.AllocsPerRun(200, func() { db.Get(key, fn) }); mem != 0 || string(got) != "a,b,a,b,a,b,c" {
		t.Errorf("merge from the memtable and tables: %v allocations, value %q", mem, got)
	}
}
