package lsm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

// registeredGroup makes a leader whose group's sequences end at last and
// registers it, as lead does.
func registeredGroup(db *DB, last uint64) *writer {
	w := &writer{wake: make(chan struct{}, 1)}
	w.grp.last = last
	db.mu.Lock()
	db.mu.lastSeq = last
	db.registerGroup(w)
	db.mu.Unlock()
	return w
}

// publishAsync runs publishGroup on its own goroutine and returns its result.
func publishAsync(db *DB, w *writer, err error) <-chan error {
	out := make(chan error, 1)
	go func() { out <- db.publishGroup(w, err) }()
	return out
}

// stillBlocked fails unless nothing has arrived on c after giving the
// goroutine behind it a chance to run.
func stillBlocked(t *testing.T, c <-chan error, what string) {
	t.Helper()
	for range 50 {
		runtime.Gosched()
		time.Sleep(100 * time.Microsecond)
	}
	select {
	case err := <-c:
		t.Fatalf("%s returned (%v) before the group ahead of it", what, err)
	default:
	}
}

// TestPublishInSequenceOrder: a group inserted before the group ahead of it
// is not visible, and its writer does not return, until that group is.
func TestPublishInSequenceOrder(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	defer db.Close()
	base := db.visibleSeq.Load()
	first := registeredGroup(db, base+3)
	second := registeredGroup(db, base+5)
	done := publishAsync(db, second, nil)
	stillBlocked(t, done, "the second group")
	if got := db.visibleSeq.Load(); got != base {
		t.Fatalf("visible sequence %d with the first group not inserted, want %d", got, base)
	}
	if err := db.publishGroup(first, nil); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := db.visibleSeq.Load(); got != base+5 {
		t.Fatalf("visible sequence %d after both groups, want %d", got, base+5)
	}
}

// TestFailedGroupFailsLaterGroups: once a group fails, no group after it is
// published, even one inserted before the failure was known, and each gets
// the failure.
func TestFailedGroupFailsLaterGroups(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	defer db.Close()
	base := db.visibleSeq.Load()
	ok := registeredGroup(db, base+1)
	bad := registeredGroup(db, base+2)
	later := registeredGroup(db, base+3)
	if err := db.publishGroup(ok, nil); err != nil {
		t.Fatal(err)
	}
	done := publishAsync(db, later, nil)
	stillBlocked(t, done, "the group after the failing one")
	boom := errors.New("insert failed")
	if err := db.publishGroup(bad, boom); !errors.Is(err, boom) {
		t.Fatalf("the failed group returned %v, want %v", err, boom)
	}
	if err := <-done; !errors.Is(err, boom) {
		t.Fatalf("the later group returned %v, want the earlier failure", err)
	}
	if got := db.visibleSeq.Load(); got != base+1 {
		t.Fatalf("visible sequence %d, want %d (only the group before the failure)", got, base+1)
	}
	db.mu.Lock()
	err := db.waitPublished()
	db.mu.Unlock()
	if !errors.Is(err, boom) {
		t.Fatalf("waitPublished returned %v, want the failure", err)
	}
}

// TestEveryVisibleSequenceIsInserted writes unique keys from many goroutines
// through small memtables (so switches and flushes happen while groups
// insert) while a reader takes snapshots: a snapshot at sequence S must see
// exactly the S keys written with sequences up to S. A group published
// before an earlier group finished inserting, or a memtable made immutable
// with an insert still in flight, shows up as a missing key.
func TestEveryVisibleSequenceIsInserted(t *testing.T) {
	for _, procs := range []int{2, 4} {
		t.Run(fmt.Sprint(procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			o := testOptions()
			o.EnablePipelinedWrite, o.AllowConcurrentMemtableWrite = true, true
			db := mustOpen(t, t.TempDir(), o)
			defer db.Close()
			base := db.visibleSeq.Load()
			const writers, writes = 6, 600
			var wg sync.WaitGroup
			errs := make(chan error, writers+1)
			stop := make(chan struct{})
			for w := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					b := NewBatch()
					for i := range writes {
						b.Reset()
						b.Put([]byte(fmt.Sprintf("w%d-%04d", w, i)), []byte(fmt.Sprintf("%0100d", i)))
						if err := db.Write(b, WriteOptions{}); err != nil {
							errs <- err
							return
						}
						seq := binary.LittleEndian.Uint64(b.Repr()[:8])
						if v := db.visibleSeq.Load(); v < seq {
							errs <- fmt.Errorf("write of sequence %d returned with %d visible", seq, v)
							return
						}
					}
				}()
			}
			var readerWG sync.WaitGroup
			readerWG.Add(1)
			go func() {
				defer readerWG.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					if err := checkSnapshotCount(db, base); err != nil {
						errs <- err
						return
					}
				}
			}()
			wg.Wait()
			close(stop)
			readerWG.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			if err := checkSnapshotCount(db, base); err != nil {
				t.Fatal(err)
			}
			if got, want := db.visibleSeq.Load(), base+writers*writes; got != want {
				t.Fatalf("visible sequence %d after every write, want %d", got, want)
			}
		})
	}
}

// checkSnapshotCount counts the keys a snapshot sees: every write is one
// new key, so a snapshot at S sees S-base of them.
func checkSnapshotCount(db *DB, base uint64) error {
	s := db.NewSnapshot()
	defer s.Release()
	it, err := db.NewIter(&IterOptions{Snapshot: s, KeysOnly: true})
	if err != nil {
		return err
	}
	n := uint64(0)
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	if err := it.Error(); err != nil {
		it.Close()
		return err
	}
	if err := it.Close(); err != nil {
		return err
	}
	if want := s.Seq() - base; n != want {
		return fmt.Errorf("snapshot at sequence %d sees %d keys, want %d", s.Seq(), n, want)
	}
	return nil
}

// TestSwitchWaitsForInsertingGroups: a memtable switch (here by Flush) waits
// while a registered group has not finished inserting, so no insert is in
// flight into a memtable that is flushed.
func TestSwitchWaitsForInsertingGroups(t *testing.T) {
	db := mustOpen(t, t.TempDir(), testOptions())
	defer db.Close()
	put(t, db, "k", "v")
	inserting := registeredGroup(db, db.visibleSeq.Load()+1)
	flushed := make(chan error, 1)
	go func() { flushed <- db.Flush() }()
	stillBlocked(t, flushed, "Flush")
	if err := db.publishGroup(inserting, nil); err != nil {
		t.Fatal(err)
	}
	if err := <-flushed; err != nil {
		t.Fatal(err)
	}
}
