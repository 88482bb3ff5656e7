package enginetest

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/godbbench/godbbench/engine"
)

// TransactionOpenFunc opens a database in dir whose transactions are
// pessimistic (RocksDB's TransactionDB) or optimistic, and returns it
// with its transactions.
type TransactionOpenFunc func(dir string, pessimistic bool) (engine.DB, engine.TransactionDB)

// RunTransactions checks engine.TransactionDB in both modes: staged
// writes (single deletes too) seen by their transaction only and applied at once at Commit,
// Rollback dropping them, a pessimistic lock wait that times out with
// engine.ErrLockTimeout, a write conflict with a snapshot failing with
// engine.ErrBusy (pessimistic at lock time, optimistic at commit, also
// with the snapshot set after the key was tracked), and concurrent
// read-modify-write transactions that lose no update. Run it under -race.
func RunTransactions(t *testing.T, open TransactionOpenFunc) {
	for _, pessimistic := range []bool{true, false} {
		mode := "optimistic"
		if pessimistic {
			mode = "pessimistic"
		}
		t.Run(mode, func(t *testing.T) {
			t.Run("StagedAndAtomic", func(t *testing.T) { testTxnStaged(t, open, pessimistic) })
			t.Run("Conflict", func(t *testing.T) { testTxnConflict(t, open, pessimistic) })
			t.Run("NoLostUpdate", func(t *testing.T) { testTxnNoLostUpdate(t, open, pessimistic) })
			if pessimistic {
				t.Run("LockTimeout", func(t *testing.T) { testTxnLockTimeout(t, open) })
			} else {
				t.Run("SnapshotAfterTrack", func(t *testing.T) { testTxnSnapshotAfterTrack(t, open) })
			}
		})
	}
}

// openTxnDB opens a database closed when the test ends, after the
// transaction objects newTxn makes (cleanups run last first).
func openTxnDB(t *testing.T, open TransactionOpenFunc, pessimistic bool) (engine.DB, engine.TransactionDB) {
	db, tdb := open(t.TempDir(), pessimistic)
	t.Cleanup(func() { mustClose(t, db) })
	return db, tdb
}

func newTxn(t *testing.T, tdb engine.TransactionDB) engine.Transaction {
	t.Helper()
	tx, err := tdb.NewTransaction()
	if err != nil {
		t.Fatalf("NewTransaction: %v", err)
	}
	t.Cleanup(func() { tx.Close() })
	return tx
}

func mustDo(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func txnGet(t *testing.T, tx engine.Transaction, key string, forUpdate bool) (string, bool, error) {
	t.Helper()
	var got string
	get := tx.Get
	if forUpdate {
		get = tx.GetForUpdate
	}
	found, err := get([]byte(key), func(v []byte) { got = string(v) })
	return got, found, err
}

func testTxnStaged(t *testing.T, open TransactionOpenFunc, pessimistic bool) {
	db, tdb := openTxnDB(t, open, pessimistic)
	wo := &engine.WriteOptions{}
	mustDo(t, "put", db.Put([]byte("a"), []byte("old"), wo))
	mustDo(t, "put", db.Put([]byte("d"), []byte("single"), wo))

	tx := newTxn(t, tdb)
	mustDo(t, "begin", tx.Begin(&engine.TransactionOptions{LockTimeout: time.Second}, wo))
	mustDo(t, "put a", tx.Put([]byte("a"), []byte("new")))
	mustDo(t, "put b", tx.Put([]byte("b"), []byte("1")))
	mustDo(t, "delete b", tx.Delete([]byte("b")))
	mustDo(t, "put c", tx.Put([]byte("c"), []byte("2")))
	mustDo(t, "single delete d", tx.SingleDelete([]byte("d")))
	if _, found, err := txnGet(t, tx, "d", false); err != nil || found {
		t.Fatalf("transaction reads d found=%v err=%v, want its own single delete", found, err)
	}
	expectGet(t, db, []byte("d"), "single", true)
	if v, found, err := txnGet(t, tx, "a", false); err != nil || !found || v != "new" {
		t.Fatalf("transaction reads a = %q %v %v, want its own write \"new\"", v, found, err)
	}
	if _, found, err := txnGet(t, tx, "b", true); err != nil || found {
		t.Fatalf("transaction reads b found=%v err=%v, want its own delete", found, err)
	}
	expectGet(t, db, []byte("a"), "old", true)
	expectGet(t, db, []byte("c"), "", false)
	mustDo(t, "commit", tx.Commit())
	expectGet(t, db, []byte("a"), "new", true)
	expectGet(t, db, []byte("b"), "", false)
	expectGet(t, db, []byte("c"), "2", true)
	expectGet(t, db, []byte("d"), "", false)

	mustDo(t, "begin", tx.Begin(&engine.TransactionOptions{LockTimeout: time.Second}, wo))
	mustDo(t, "put a", tx.Put([]byte("a"), []byte("dropped")))
	mustDo(t, "rollback", tx.Rollback())
	expectGet(t, db, []byte("a"), "new", true)
}

// testTxnConflict: a transaction with a snapshot reads a key for update
// (pessimistic: after the other commit, so the lock sees it) or tracks it
// (optimistic) while another transaction commits the key; the first must
// fail with ErrBusy, and a transaction with no conflict must commit.
func testTxnConflict(t *testing.T, open TransactionOpenFunc, pessimistic bool) {
	db, tdb := openTxnDB(t, open, pessimistic)
	wo := &engine.WriteOptions{}
	o := &engine.TransactionOptions{LockTimeout: time.Second, SetSnapshot: true}
	first, second := newTxn(t, tdb), newTxn(t, tdb)

	mustDo(t, "begin first", first.Begin(o, wo))
	if !first.HasSnapshot() {
		t.Fatalf("SetSnapshot option left the transaction without a snapshot")
	}
	if !pessimistic {
		_, _, err := txnGet(t, first, "k", true)
		mustDo(t, "first GetForUpdate", err)
	}
	mustDo(t, "begin second", second.Begin(o, wo))
	mustDo(t, "second put", second.Put([]byte("k"), []byte("second")))
	mustDo(t, "second commit", second.Commit())

	var err error
	if pessimistic {
		_, _, err = txnGet(t, first, "k", true)
	} else {
		mustDo(t, "first put", first.Put([]byte("k"), []byte("first")))
		err = first.Commit()
	}
	if !errors.Is(err, engine.ErrBusy) || !engine.IsTransactionConflict(err) {
		t.Fatalf("write conflict gave %v, want %v", err, engine.ErrBusy)
	}
	if pessimistic {
		mustDo(t, "rollback first", first.Rollback())
	}
	expectGet(t, db, []byte("k"), "second", true)

	mustDo(t, "begin first", first.Begin(o, wo))
	_, _, err = txnGet(t, first, "k", true)
	mustDo(t, "GetForUpdate without conflict", err)
	mustDo(t, "put", first.Put([]byte("k"), []byte("third")))
	mustDo(t, "commit without conflict", first.Commit())
	expectGet(t, db, []byte("k"), "third", true)
}

// testTxnSnapshotAfterTrack: an optimistic transaction reads a key for
// update without a snapshot, another commits the key, and only then the
// first sets a snapshot and writes the key: its commit fails with ErrBusy
// (the other commit came after the key was tracked), as in RocksDB.
func testTxnSnapshotAfterTrack(t *testing.T, open TransactionOpenFunc) {
	db, tdb := openTxnDB(t, open, false)
	wo := &engine.WriteOptions{}
	o := &engine.TransactionOptions{LockTimeout: time.Second}
	first, second := newTxn(t, tdb), newTxn(t, tdb)
	mustDo(t, "begin first", first.Begin(o, wo))
	_, _, err := txnGet(t, first, "k", true)
	mustDo(t, "first GetForUpdate", err)
	mustDo(t, "begin second", second.Begin(o, wo))
	mustDo(t, "second put", second.Put([]byte("k"), []byte("second")))
	mustDo(t, "second commit", second.Commit())
	mustDo(t, "first SetSnapshot", first.SetSnapshot())
	mustDo(t, "first put", first.Put([]byte("k"), []byte("first")))
	if err := first.Commit(); !errors.Is(err, engine.ErrBusy) || !engine.IsTransactionConflict(err) {
		t.Fatalf("commit over a write made after the key was tracked: %v, want %v", err, engine.ErrBusy)
	}
	expectGet(t, db, []byte("k"), "second", true)
}

func testTxnLockTimeout(t *testing.T, open TransactionOpenFunc) {
	db, tdb := openTxnDB(t, open, true)
	wo := &engine.WriteOptions{}
	holder, waiter := newTxn(t, tdb), newTxn(t, tdb)
	mustDo(t, "begin holder", holder.Begin(&engine.TransactionOptions{LockTimeout: time.Second}, wo))
	_, _, err := txnGet(t, holder, "k", true)
	mustDo(t, "holder GetForUpdate", err)

	for _, timeout := range []time.Duration{0, 5 * time.Millisecond} {
		mustDo(t, "begin waiter", waiter.Begin(&engine.TransactionOptions{LockTimeout: timeout}, wo))
		err = waiter.Put([]byte("k"), []byte("waiter"))
		if !errors.Is(err, engine.ErrLockTimeout) || !engine.IsTransactionConflict(err) {
			t.Fatalf("lock timeout %v gave %v, want %v", timeout, err, engine.ErrLockTimeout)
		}
		mustDo(t, "waiter rollback", waiter.Rollback())
	}
	// Once the holder commits, the lock is free again.
	mustDo(t, "holder commit", holder.Commit())
	mustDo(t, "begin waiter", waiter.Begin(&engine.TransactionOptions{LockTimeout: 0}, wo))
	mustDo(t, "waiter put after release", waiter.Put([]byte("k"), []byte("waiter")))
	mustDo(t, "waiter commit", waiter.Commit())
	expectGet(t, db, []byte("k"), "waiter", true)
}

// testTxnNoLostUpdate runs db_bench's randomtransaction in miniature:
// goroutines add the same amount to one random key of each of two sets in
// one transaction, retrying on conflicts. At the end each set's sum must
// equal the total of the committed increments.
func testTxnNoLostUpdate(t *testing.T, open TransactionOpenFunc, pessimistic bool) {
	db, tdb := openTxnDB(t, open, pessimistic)
	const workers, keysPerSet, sets = 4, 8, 2
	perWorker := 300
	if testing.Short() {
		perWorker = 100
	}
	var wg sync.WaitGroup
	committed := make([]uint64, workers)
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			tx, err := tdb.NewTransaction()
			if err != nil {
				errs <- err
				return
			}
			defer tx.Close()
			o := &engine.TransactionOptions{LockTimeout: 50 * time.Millisecond, SetSnapshot: true}
			wo := &engine.WriteOptions{}
			var cur uint64
			read := func(v []byte) { cur, _ = strconv.ParseUint(string(v), 10, 64) }
			for i := 0; i < perWorker; i++ {
				incr := uint64(w*7+i)%100 + 1
				err := tx.Begin(o, wo)
				for s := 0; s < sets && err == nil; s++ {
					key := []byte(fmt.Sprintf("%04d%d", s+1, (w+i*3+s)%keysPerSet))
					cur = 0
					get := tx.Get
					if i%2 == 0 {
						get = tx.GetForUpdate
					}
					if _, err = get(key, read); err == nil {
						err = tx.Put(key, []byte(strconv.FormatUint(cur+incr, 10)))
					}
				}
				if err == nil {
					err = tx.Commit()
					if err == nil {
						committed[w] += incr
					}
				} else {
					tx.Rollback()
				}
				if err != nil && !engine.IsTransactionConflict(err) {
					errs <- err
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var want uint64
	for _, c := range committed {
		want += c
	}
	if want == 0 {
		t.Fatalf("no transaction committed")
	}
	for s := 0; s < sets; s++ {
		var sum uint64
		for k := 0; k < keysPerSet; k++ {
			key := []byte(fmt.Sprintf("%04d%d", s+1, k))
			if _, err := db.Get(key, func(v []byte) {
				n, _ := strconv.ParseUint(string(v), 10, 64)
				sum += n
			}); err != nil {
				t.Fatal(err)
			}
		}
		if sum != want {
			t.Errorf("set %d sums to %d, want the committed increments' %d", s+1, sum, want)
		}
	}
}
