package lsm

import "fmt"

// Retiring the WAL a switch leaves.
//
// The WAL of the memtable leaving at a switch holds every record the
// groups before the switch wrote to it (each group writes its records
// before the next leader runs), so a process that dies now loses none of
// them. It still needs an fsync, for machine crashes, and a close (with
// --mmap_write: unmapping and truncating to what was written). Both ran in
// the switch with DB.mu held, every writer queued behind it. They now run
// in a goroutine per retired WAL, and what the sync protected is kept by
// waiting for it where it matters:
//
//   - A group with a synchronous write waits for every retired WAL's sync
//     before it writes its own records (lead), so a write acknowledged as
//     durable never survives a machine crash without the writes logged
//     before it, as RocksDB syncs the older WALs with a synchronous write.
//   - A flush waits for them before recording its table in the MANIFEST,
//     after which the WAL it replaces is deleted: a memtable's WAL is
//     synced and closed before the memtable's flush ends (flushLoop).
//   - Close waits for them.
//
// A failed sync stops writes, as a failed WAL write does.

// retireWAL starts the sync and close of f, the WAL a switch left (DB.mu
// held).
func (db *DB) retireWAL(f WritableFile) {
	db.mu.retiringWALs++
	db.bgWG.Add(1)
	go db.syncRetiredWAL(f)
}

// syncRetiredWAL syncs and closes f, then wakes whoever waits for it.
func (db *DB) syncRetiredWAL(f WritableFile) {
	defer db.bgWG.Done()
	err := f.Sync()
	f.Close()
	db.mu.Lock()
	db.mu.retiringWALs--
	if err != nil && db.mu.walSyncErr == nil {
		db.mu.walSyncErr = fmt.Errorf("lsm: sync WAL: %w", err)
	}
	if err != nil && db.mu.bgErr == nil {
		db.mu.bgErr = db.mu.walSyncErr
	}
	db.bgCond.Broadcast()
	db.mu.Unlock()
}

// waitRetiredWALs blocks until every retired WAL is synced and closed
// (DB.mu held, released while waiting).
func (db *DB) waitRetiredWALs() {
	for db.mu.retiringWALs > 0 {
		db.bgCond.Wait()
	}
}
