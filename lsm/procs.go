package lsm

import "runtime"

// The write path's view of GOMAXPROCS. A commit group's parallel insert
// (insert_group.go), a large batch's two-way insert (insert_split.go) and
// the overlapped WAL write (wal_overlap.go) each depend on how many
// goroutines can run at once. runtime.GOMAXPROCS(0) takes the scheduler's
// lock, so the DB reads it once per memtable it makes (at Open and at each
// memtable switch) and the write path loads the copy. A change of
// GOMAXPROCS takes effect from the next memtable on.

// refreshProcs copies runtime.GOMAXPROCS into the DB.
func (db *DB) refreshProcs() { db.procs.Store(int32(runtime.GOMAXPROCS(0))) }

// maxProcs is GOMAXPROCS as of the last refreshProcs.
func (db *DB) maxProcs() int { return int(db.procs.Load()) }
