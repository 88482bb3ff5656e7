package lsm

// switchMemtable makes the active memtable immutable and starts an empty
// one (DB.mu held). As RocksDB's SwitchMemtable does, it keeps the current
// WAL when not one record was written to it (every write since it was made
// skipped the WAL, as db_bench's --disable_wal jobs do): the new memtable
// is logged to the same file, which holds nothing of the memtable leaving,
// so the flush of that memtable leaves the MANIFEST's log number where it
// is and the file stays live. Otherwise it takes a new WAL, made ahead in
// the background (walnext.go), and retires the old one (walretire.go).
//
// Why: with small write buffers (benchmark.sh's bulkload and
// fillseq.wal_disabled at 1 MiB) a switch would otherwise make, for every
// memtable, a WAL that stays empty: a file, with --mmap_write a
// preallocated extent, and an fsync of the WAL directory. The next WAL is
// made ahead only once the active one has a logged record, so such jobs
// make none.
func (db *DB) switchMemtable() error {
	if db.mu.log == nil || db.mu.log.Size() != 0 || db.mu.log.Pending() != 0 {
		num, f, err := db.newWAL()
		if err != nil {
			return err
		}
		return db.switchLog(num, f)
	}
	mem, err := db.newMemTable(db.mu.logNum)
	if err != nil {
		return err
	}
	db.retireActiveMemtable(mem)
	return nil
}

// retireActiveMemtable appends the active memtable to the immutable ones
// and makes mem the active one (DB.mu held).
func (db *DB) retireActiveMemtable(mem *memTable) {
	if db.def.mem != nil {
		db.def.mem.lastSeq = db.mu.lastSeq
		db.def.imm = append(db.def.imm, db.def.mem)
	}
	db.def.mem = mem
}
