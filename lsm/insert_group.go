package lsm

import (
	"sync"
	"sync/atomic"
)

// Parallel memtable insert of a commit group.
//
// With allow_concurrent_memtable_write, RocksDB has each writer of a group
// insert its own batch on its own thread. Here a writer is a goroutine, and
// only GOMAXPROCS goroutines run at once: waking every follower to insert
// costs each one a second wake-up (it is woken again when the group is
// done), usually a futex call, and buys no parallelism past GOMAXPROCS.
// So the leader wakes at most GOMAXPROCS-1 followers as helpers; the leader
// and its helpers take the group's batches one at a time from a shared
// index until none is left, and the other followers sleep until the group
// is done. GOMAXPROCS here is the DB's copy of it, refreshed at each
// memtable switch (procs.go). Which goroutine inserts a batch changes
// nothing for its writer: every Write of the group returns only after the
// whole group is inserted and its sequence published (commit.go).
//
// Why: db_bench fillrandom --threads=8 --num=100000 on 2 cores spent 1.1 to
// 1.4 s of system time, against 0.3 to 0.4 s with the inserts serial
// (--allow_concurrent_memtable_write=false), for the same user time.

// groupInsert is the leader's state for one parallel insert. It lives in
// the DB (leader only), so a group allocates nothing.
type groupInsert struct {
	next atomic.Int64   // index in the group of the next batch to take
	wg   sync.WaitGroup // helpers still inserting
}

// insertGroup applies the group's batches to mem, with helpers when there
// is more than one batch, the options allow concurrent memtable writes and
// more than one goroutine can run.
func (db *DB) insertGroup(mem *memTable, group []*writer) error {
	n := len(group)
	if n == 1 && db.canSplit(group[0].batch) {
		return db.insertSplit(mem, group[0].batch)
	}
	helpers := 0
	if n > 1 && db.opts.AllowConcurrentMemtableWrite {
		helpers = min(n-1, db.maxProcs()-1)
	}
	gi := &db.helpers
	gi.next.Store(0)
	if helpers <= 0 {
		return db.insertTaken(mem, group)
	}
	gi.wg.Add(helpers)
	for _, f := range group[1 : 1+helpers] {
		f.mem, f.state = mem, stateInsert
		f.wake <- struct{}{}
	}
	err := db.insertTaken(mem, group)
	gi.wg.Wait()
	for _, f := range group[1 : 1+helpers] {
		if f.err != nil && err == nil {
			err = f.err
		}
	}
	return err
}

// helpInsert is a helper's share of its group's insert: w is a follower
// the leader woke with stateInsert.
func (db *DB) helpInsert(w *writer) {
	w.err = db.insertTaken(w.mem, db.group)
	db.helpers.wg.Done()
}

// insertTaken inserts the group's batches that no other goroutine has
// taken, one at a time, and returns the first error.
func (db *DB) insertTaken(mem *memTable, group []*writer) error {
	for {
		i := db.helpers.next.Add(1) - 1
		if i >= int64(len(group)) {
			return nil
		}
		if err := db.insert(mem, group[i].batch); err != nil {
			return err
		}
	}
}
