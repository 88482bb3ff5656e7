package lsm

// switchMemtable makes the active memtable of family f immutable and
// starts an empty one (DB.mu held); the other families keep theirs, as in
// RocksDB. As RocksDB's SwitchMemtable does, it keeps the current
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
func (db *DB) switchMemtable(f *family) error {
	if db.mu.log == nil || db.mu.log.Size() != 0 || db.mu.log.Pending() != 0 {
		num, file, err := db.newWAL()
		if err != nil {
			return err
		}
		return db.switchLog(f, num, file)
	}
	mem, err := db.newMemTable(db.mu.logNum)
	if err != nil {
		return err
	}
	db.retireActiveMemtable(f, mem)
	return nil
}

// retireActiveMemtable appends the active memtable of f to its immutable
// ones and makes mem the active one (DB.mu held).
func (db *DB) retireActiveMemtable(f *family, mem *memTable) {
	if f.mem != nil {
		f.mem.lastSeq = db.mu.lastSeq
		f.imm = append(f.imm, f.mem)
	}
	f.mem = mem
}

// moveIdleFamiliesTo gives the families other than skip that hold no
// unflushed write the WAL logNum as their memtable's log number, as
// RocksDB's SwitchMemtable does: their writes are all in tables, so the
// WALs before logNum need not be kept for them (DB.mu held).
func (db *DB) moveIdleFamiliesTo(logNum uint64, skip *family) {
	for _, f := range db.mu.vs.families.live {
		db.moveIdleFamily(f, logNum, skip)
	}
	db.moveIdleFamily(db.def, logNum, skip)
}

func (db *DB) moveIdleFamily(f *family, logNum uint64, skip *family) {
	if f != skip && f.mem != nil && len(f.imm) == 0 && f.mem.empty() && !f.mem.unlogged.Load() {
		f.mem.logNum = logNum
	}
}
