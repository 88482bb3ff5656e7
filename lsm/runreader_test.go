package lsm

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"testing"
)

// TestRunReaderHoldsStateUntilEnd: a RunReader keeps its read state, and
// with it a table a compaction made obsolete, until its next Get finds a
// newer state or End drops it; that Get reads the newer state.
func TestRunReaderHoldsStateUntilEnd(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, testOptions())
	defer db.Close()
	put(t, db, "a", "1")
	put(t, db, "b", "2")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	r := db.NewRunReader()
	compactAway := func() string {
		t.Helper()
		old := filesOf(t, dir, fileTable)
		if len(old) != 1 {
			t.Fatalf("tables: %v, want one", old)
		}
		held := r.rs
		put(t, db, "a", "3") // overlaps the table: a merge, not a move
		if err := db.Compact(nil, nil, -1); err != nil {
			t.Fatal(err)
		}
		if err := db.WaitForCompactions(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(old[0]); err != nil {
			t.Fatalf("table %s, held by a RunReader, is gone: %v", old[0], err)
		}
		if n := held.refs.Load(); n != 1 {
			t.Fatalf("held read state has %d references, want the RunReader's 1", n)
		}
		return old[0]
	}
	if v, ok := getString(t, r, "a"); !ok || v != "1" {
		t.Fatalf("Get(a) = %q, %v; want 1", v, ok)
	}
	held := r.rs
	old := compactAway()
	// The next Get sees the state published since, and lets the old go.
	if v, ok := getString(t, r, "a"); !ok || v != "3" {
		t.Fatalf("Get(a) after the compaction = %q, %v; want 3", v, ok)
	}
	if r.rs == held || held.refs.Load() != 0 {
		t.Fatalf("the RunReader kept the old state (%d references)", held.refs.Load())
	}
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("obsolete table %s still there after the RunReader moved on: %v", old, err)
	}
	// End lets go of the state with no Get after it.
	held = r.rs
	old = compactAway()
	r.End()
	if r.rs != nil || held.refs.Load() != 0 {
		t.Fatalf("End kept the state (%d references)", held.refs.Load())
	}
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("obsolete table %s still there after End: %v", old, err)
	}
	r.End() // a second End is harmless
}

// TestRunReaderAfterClose: a Get after Close reports ErrClosed, and End
// after Close releases a state held across it.
func TestRunReaderAfterClose(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	put(t, db, "a", "1")
	r := db.NewRunReader()
	if v, ok := getString(t, r, "a"); !ok || v != "1" {
		t.Fatalf("Get(a) = %q, %v", v, ok)
	}
	held := r.rs
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Get([]byte("a"), nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("Get after Close: %v, want ErrClosed", err)
	}
	if held.refs.Load() != 0 {
		t.Fatalf("state held across Close has %d references after the failed Get", held.refs.Load())
	}
	r.End()
}

// TestRunReaderSeesEveryWrite: readers with RunReaders, ending a run every
// 64 Gets as engine.Runs does, run beside a writer whose small memtables
// switch and flush every few hundred writes. A Get must see every write
// that finished before it began: each reader picks a key among those
// written so far and requires its value.
func TestRunReaderSeesEveryWrite(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	defer db.Close()
	n := 20000
	if testing.Short() {
		n = 5000
	}
	var written atomic.Int64 // keys [0, written) are in the DB
	key := func(i int64) string { return fmt.Sprintf("key%08d", i*7919%1000003) }
	value := func(i int64) string { return fmt.Sprintf("value-%d-%0100d", i, i) }
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := db.NewRunReader()
			defer r.End()
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			for gets := 0; ; gets++ {
				select {
				case <-stop:
					return
				default:
				}
				w := written.Load()
				if w == 0 {
					continue
				}
				// Half the Gets ask for the newest key, which is in
				// the memtable a switch may just have replaced.
				i := w - 1
				if gets%2 == 1 {
					i = rng.Int64N(w)
				}
				var got string
				found, err := r.Get([]byte(key(i)), func(v []byte) { got = string(v) })
				if err == nil && (!found || got != value(i)) {
					err = fmt.Errorf("Get(%s) of write %d (of %d done) = %.20q, %v", key(i), i, w, got, found)
				}
				if err != nil {
					errs <- err
					return
				}
				if gets%64 == 63 {
					r.End()
				}
			}
		}()
	}
	for i := range int64(n) {
		put(t, db, key(i), value(i))
		written.Store(i + 1)
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	m, err := db.Metrics()
	if err != nil {
		t.Fatal(err)
	}
	if m.Flushes.Count == 0 {
		t.Fatalf("no flush during %d writes: the test switched no memtable", n)
	}
}
