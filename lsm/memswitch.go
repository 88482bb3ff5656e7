package lsm

// switchMemtable makes the active memtable immutable and starts an empty
// one (DB.mu held). As RocksDB's SwitchMemtable does, it keeps the current
// WAL when not one record was written to it (every write since it was made
// skipped the WAL, as db_bench's --disable_wal jobs do): the new memtable
// is logged to the same file, which holds nothing of the memtable leaving,
// so the flush of that memtable leaves the MANIFEST's log number where it
// is and the file stays live. Otherwise it makes a new WAL (switchLog).
//
// Why: with small write buffers (benchmark.sh's bulkload and
// fillseq.wal_disabled at 1 MiB) the writer that switches paid, holding
// DB.mu, for a WAL that would stay empty: creating and preallocating the
// file, mapping its first extent, an fdatasync and a truncation of the
// old one, and an fsync of the WAL directory.
func (db *DB) switchMemtable() error {
	if db.mu.log == nil || db.mu.log.Size() != 0 || db.mu.log.Pending() != 0 {
		return db.switchLog(db.mu.vs.newFileNum())
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
	if db.mu.mem != nil {
		db.mu.mem.lastSeq = db.mu.lastSeq
		db.mu.imm = append(db.mu.imm, db.mu.mem)
	}
	db.mu.mem = mem
}
