package enginetest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// testDeleteRange checks range deletions against the model: over keys in
// tables and in the memtable, through DB.DeleteRange and a batch (in
// order with the batch's other writes), an exclusive end, writes after a
// range deletion seen again, an iterator opened before it still seeing
// the deleted keys, and the result kept through Flush, Compact and a
// reopen. An engine without range deletions must refuse both ways with an
// error wrapping engine.ErrNoRangeDeletions and apply nothing of the
// refused batch; the subtest then skips.
func testDeleteRange(t *testing.T, open OpenFunc) {
	dir := t.TempDir()
	db := open(dir)
	m := newModel()
	key := func(i int) []byte { return fmt.Appendf(nil, "key%03d", i) }
	for i := 0; i < 100; i++ {
		v := fmt.Appendf(nil, "v%d", i)
		if err := db.Put(key(i), v, noSyncWrite); err != nil {
			t.Fatalf("Put: %v", err)
		}
		m.put(key(i), v)
		if i == 49 {
			if err := db.Flush(); err != nil {
				t.Fatalf("Flush: %v", err)
			}
		}
	}
	before, err := db.NewIter(nil)
	if err != nil {
		t.Fatalf("NewIter: %v", err)
	}
	if err := db.DeleteRange(key(20), key(70), noSyncWrite); err != nil {
		closeIter(t, before)
		if !errors.Is(err, engine.ErrNoRangeDeletions) {
			t.Fatalf("DeleteRange: %v, which does not wrap engine.ErrNoRangeDeletions", err)
		}
		checkBatchRangeRefused(t, db)
		mustClose(t, db)
		t.Skipf("engine has no range deletions: %v", err)
	}
	deleteRange(m, key(20), key(70))
	n := 0
	for ok := before.First(); ok; ok = before.Next() {
		n++
	}
	if err := before.Error(); err != nil || n != 100 {
		t.Fatalf("an iterator opened before DeleteRange saw %d keys (error %v), want all 100", n, err)
	}
	closeIter(t, before)
	checkAgainstModel(t, db, m, "after DeleteRange")

	if err := db.Put(key(30), []byte("again"), noSyncWrite); err != nil {
		t.Fatalf("Put: %v", err)
	}
	m.put(key(30), []byte("again"))
	b := db.NewBatch()
	defer b.Close()
	b.Put(key(80), []byte("x"))
	b.DeleteRange(key(75), key(85))
	b.Put(key(85), []byte("y"))
	b.Put(key(78), []byte("z"))
	if err := db.Apply(b, noSyncWrite); err != nil {
		t.Fatalf("Apply of a batch with DeleteRange: %v", err)
	}
	m.put(key(80), []byte("x"))
	deleteRange(m, key(75), key(85))
	m.put(key(85), []byte("y"))
	m.put(key(78), []byte("z"))
	checkAgainstModel(t, db, m, "after a batch with DeleteRange")
	if err := db.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	checkAgainstModel(t, db, m, "after Flush")
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	checkAgainstModel(t, db, m, "after Compact")
	if err := db.DeleteRange(key(0), key(5), noSyncWrite); err != nil {
		t.Fatalf("DeleteRange: %v", err)
	}
	deleteRange(m, key(0), key(5))
	mustClose(t, db)
	db = open(dir)
	defer mustClose(t, db)
	checkAgainstModel(t, db, m, "after reopen")
}

func deleteRange(m *model, start, end []byte) {
	for _, k := range append([]string(nil), m.keys()...) {
		if k >= string(start) && k < string(end) {
			m.delete([]byte(k))
		}
	}
}

// checkBatchRangeRefused checks that a batch holding a range deletion is
// refused whole by an engine without range deletions.
func checkBatchRangeRefused(t *testing.T, db engine.DB) {
	t.Helper()
	b := db.NewBatch()
	defer b.Close()
	b.Put([]byte("refused"), []byte("1"))
	b.DeleteRange([]byte("a"), []byte("b"))
	if err := db.Apply(b, noSyncWrite); !errors.Is(err, engine.ErrNoRangeDeletions) {
		t.Fatalf("Apply of a batch with DeleteRange: %v, want an error wrapping engine.ErrNoRangeDeletions", err)
	}
	expectGet(t, db, []byte("refused"), "", false)
}

// checkAgainstModel compares every Get and full forward and reverse
// scans with the model.
func checkAgainstModel(t *testing.T, db engine.DB, m *model, what string) {
	t.Helper()
	for i := 0; i < 100; i++ {
		k := fmt.Appendf(nil, "key%03d", i)
		want, ok := m.get(k)
		expectGet(t, db, k, want, ok)
	}
	want := m.keys()
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatalf("%s: NewIter: %v", what, err)
	}
	defer closeIter(t, it)
	var got []string
	for ok := it.First(); ok; ok = it.Next() {
		got = append(got, string(it.Key()))
	}
	if err := it.Error(); err != nil {
		t.Fatalf("%s: forward scan: %v", what, err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s: forward scan %v, want %v", what, got, want)
	}
	got = got[:0]
	for ok := it.Last(); ok; ok = it.Prev() {
		got = append([]string{string(it.Key())}, got...)
	}
	if err := it.Error(); err != nil {
		t.Fatalf("%s: reverse scan: %v", what, err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s: reverse scan %v, want %v", what, got, want)
	}
}
