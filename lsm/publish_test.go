package lsm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
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

// registeredGroups opens a DB and registers one group per offset, in
// order, the group's sequences ending offset past the DB's visible
// sequence, base.
func registeredGroups(t *testing.T, offsets ...uint64) (db *DB, base uint64, groups []*writer) {
	t.Helper()
	db = mustOpen(t, t.TempDir(), testOptions())
	t.Cleanup(func() { db.Close() })
	base = db.visibleSeq.Load()
	for _, off := range offsets {
		groups = append(groups, registeredGroup(db, base+off))
	}
	return db, base, groups
}

// blockedPublish publishes w's group inserted from its own goroutine and
// fails unless publishGroup waits there for a group ahead of it.
func blockedPublish(t *testing.T, db *DB, w *writer, what string) <-chan error {
	t.Helper()
	done := publishAsync(db, w, nil)
	stillBlocked(t, done, what)
	return done
}

// TestPublishInSequenceOrder: a group inserted before the group ahead of it
// is not visible, and its writer does not return, until that group is; the
// writer woken then is counted once, polling or parked.
func TestPublishInSequenceOrder(t *testing.T) {
	db, base, g := registeredGroups(t, 3, 5)
	done := blockedPublish(t, db, g[1], "the second group")
	if got := db.visibleSeq.Load(); got != base {
		t.Fatalf("visible sequence %d with the first group not inserted, want %d", got, base)
	}
	if err := db.publishGroup(g[0], nil); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := db.visibleSeq.Load(); got != base+5 {
		t.Fatalf("visible sequence %d after both groups, want %d", got, base+5)
	}
	m, err := db.Metrics()
	if err != nil {
		t.Fatal(err)
	}
	if w := m.Writes; w.WakesPolling+w.WakesParked != 1 {
		t.Fatalf("%d wakes polling and %d parked, want one in all", w.WakesPolling, w.WakesParked)
	}
}

// TestFailedGroupFailsLaterGroups: once a group fails, no group after it is
// published, even one inserted before the failure was known, and each gets
// the failure.
func TestFailedGroupFailsLaterGroups(t *testing.T) {
	db, base, g := registeredGroups(t, 1, 2, 3)
	ok, bad, later := g[0], g[1], g[2]
	if err := db.publishGroup(ok, nil); err != nil {
		t.Fatal(err)
	}
	done := blockedPublish(t, db, later, "the group after the failing one")
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
// with an insert still in flight, shows up as a missing key. Besides
// one-record batches, it writes batches large enough to be split
// (insert_split.go) and groups large enough to write their WAL from a second
// goroutine (wal_overlap.go), which hand the queue on early too: under
// -race, any state of theirs that the next leader shared shows up.
func TestEveryVisibleSequenceIsInserted(t *testing.T) {
	for _, c := range []struct {
		name            string
		writers, writes int
		records, value  int
	}{
		{"one", 6, 600, 1, 100},
		{"split", 3, 12, splitInsertMin + 44, 8},
		{"overlap", 3, 24, 40, walOverlapBytes / 32},
	} {
		for _, procs := range []int{2, 4} {
			t.Run(fmt.Sprintf("%s/%d", c.name, procs), func(t *testing.T) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				o := testOptions()
				o.EnablePipelinedWrite, o.AllowConcurrentMemtableWrite = true, true
				db := mustOpen(t, t.TempDir(), o)
				defer db.Close()
				testEveryVisibleSequenceIsInserted(t, db, c.writers, c.writes, c.records, c.value)
			})
		}
	}
}

// testEveryVisibleSequenceIsInserted is TestEveryVisibleSequenceIsInserted
// on db with batches of records records of value bytes.
func testEveryVisibleSequenceIsInserted(t *testing.T, db *DB, writers, writes, records, value int) {
	base := db.visibleSeq.Load()
	stop := make(chan struct{})
	read := make(chan error, 1)
	go func() {
		defer close(read)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := checkSnapshotCount(db, base); err != nil {
				read <- err
				return
			}
		}
	}()
	err := writeFromGoroutines(db, writers, writes, func(b *Batch, w, i int) WriteOptions {
		for r := range records {
			b.Put([]byte(fmt.Sprintf("w%d-%04d-%03d", w, i, r)), []byte(fmt.Sprintf("%0*d", value, i)))
		}
		return WriteOptions{}
	}, func(b *Batch) error {
		last := binary.LittleEndian.Uint64(b.Repr()[:8]) + uint64(b.Count()) - 1
		if v := db.visibleSeq.Load(); v < last {
			return fmt.Errorf("write of sequence %d returned with %d visible", last, v)
		}
		return nil
	})
	close(stop)
	if rerr := <-read; rerr != nil {
		t.Fatal(rerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := checkSnapshotCount(db, base); err != nil {
		t.Fatal(err)
	}
	if got, want := db.visibleSeq.Load(), base+uint64(writers*writes*records); got != want {
		t.Fatalf("visible sequence %d after every write, want %d", got, want)
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
