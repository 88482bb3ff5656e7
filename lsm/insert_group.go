package lsm

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
// is done. The group's state lives in its leader's writer (commitGroup), so
// groups handed off early (publish.go) insert at once without sharing it.
// GOMAXPROCS here is the DB's copy of it, refreshed at each
// memtable switch (procs.go). Which goroutine inserts a batch changes
// nothing for its writer: every Write of the group returns only after the
// whole group is inserted and its sequence published (commit.go).
//
// Why: db_bench fillrandom --threads=8 --num=100000 on 2 cores spent 1.1 to
// 1.4 s of system time, against 0.3 to 0.4 s with the inserts serial
// (--allow_concurrent_memtable_write=false), for the same user time.

// insertGroup applies the group w leads to mem, with helpers when there
// is more than one batch, the options allow concurrent memtable writes and
// more than one goroutine can run.
func (db *DB) insertGroup(mem *memTable, w *writer) error {
	g := &w.grp
	group := g.writers
	n := len(group)
	if n == 1 && db.canSplit(group[0].batch) {
		return g.split.insertSplit(mem, group[0].batch)
	}
	helpers := 0
	if n > 1 && db.opts.AllowConcurrentMemtableWrite {
		helpers = min(n-1, db.maxProcs()-1)
	}
	g.next.Store(0)
	if helpers <= 0 {
		return db.insertTaken(mem, g)
	}
	g.wg.Add(helpers)
	for _, f := range group[1 : 1+helpers] {
		f.mem, f.lead, f.state = mem, w, stateInsert
		g.wakes.add(f.signal())
	}
	err := db.insertTaken(mem, g)
	g.wg.Wait()
	for _, f := range group[1 : 1+helpers] {
		if f.err != nil && err == nil {
			err = f.err
		}
	}
	return err
}

// helpInsert is a helper's share of its group's insert: w is a follower
// its leader woke with stateInsert.
func (db *DB) helpInsert(w *writer) {
	g := &w.lead.grp
	w.err = db.insertTaken(w.mem, g)
	g.wg.Done()
}

// insertTaken inserts the group's batches that no other goroutine has
// taken, one at a time, and returns the first error.
func (db *DB) insertTaken(mem *memTable, g *commitGroup) error {
	for {
		i := g.next.Add(1) - 1
		if i >= int64(len(g.writers)) {
			return nil
		}
		if err := db.insert(mem, g.writers[i].batch); err != nil {
			return err
		}
	}
}
