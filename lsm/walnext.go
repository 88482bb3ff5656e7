package lsm

import (
	"fmt"
	"os"
)

// The next WAL, made ahead of the switch that needs it.
//
// A memtable switch that starts a new WAL runs in the commit leader with
// DB.mu held: every writer queues behind it and every reader or
// background job that needs DB.mu waits. Making the WAL there meant
// creating the file, with --mmap_write preallocating and mapping its first
// extent, and an fsync of the WAL directory. Instead, once the active WAL
// takes its first logged record (so the next switch will need a new one),
// a background goroutine makes the next WAL, number, file and directory
// fsync, and the switch only takes it (walAhead.take). A switch that
// finds it still being made waits for it; one that finds none makes it
// itself, as recovery does.
//
// On disk, the WAL made ahead is an empty file (with --mmap_write, zeros
// up to its first extent, which the WAL reader takes for the end of the
// log) numbered above the active WAL. A crash leaves it behind: recovery
// replays it as an empty WAL and deletes it like any other. Close removes
// it.

// walAhead is the WAL made ahead, guarded by DB.mu.
type walAhead struct {
	num    uint64
	file   WritableFile // nil: none ready
	err    error        // why the last attempt failed; the switch returns it
	making bool         // a goroutine is making one
}

// createWAL creates WAL num under the WAL options (--mmap_write,
// --wal_bytes_per_sync, --rate_limit_auto_wal_flush) and fsyncs the WAL
// directory, so that the file is found after a crash before any record
// is written to it. It needs no lock.
func (db *DB) createWAL(num uint64) (WritableFile, error) {
	f, err := db.fs.Create(walName(db.walDir, num))
	if err != nil {
		return nil, fmt.Errorf("lsm: create WAL: %w", err)
	}
	f, recount := uncounted(f)
	osf, _ := f.(*os.File)
	if osf != nil && db.opts.MmapWrite {
		if f, err = newMmapLog(osf, walExtent(db.opts.WriteBufferSize)); err != nil {
			osf.Close()
			return nil, fmt.Errorf("lsm: create WAL: %w", err)
		}
	}
	f = recount(db.wrapWAL(f, osf), f == WritableFile(osf)) // mapped: fdatasync
	if err := db.fs.SyncDir(db.walDir); err != nil {
		f.Close()
		return nil, fmt.Errorf("lsm: sync WAL dir: %w", err)
	}
	return f, nil
}

// prepareNextWAL starts making the next WAL in the background unless one
// is ready or being made (DB.mu held). The commit leader calls it for
// every group that writes the WAL; it costs a few loads when there is
// nothing to do.
func (db *DB) prepareNextWAL() {
	a := &db.mu.nextWAL
	if a.making || a.file != nil || a.err != nil || db.mu.closed {
		return
	}
	a.making = true
	db.bgWG.Add(1)
	go db.makeNextWAL()
}

// makeNextWAL makes the next WAL and hands it to the switch that will
// take it.
func (db *DB) makeNextWAL() {
	defer db.bgWG.Done()
	num := db.mu.vs.newFileNum()
	f, err := db.createWAL(num)
	db.mu.Lock()
	a := &db.mu.nextWAL
	a.num, a.file, a.err, a.making = num, f, err, false
	db.bgCond.Broadcast()
	db.mu.Unlock()
}

// newWAL returns a WAL for the switch: the one made ahead, waiting for it
// while a goroutine makes it, or a new one made here (DB.mu held; released
// only while waiting).
func (db *DB) newWAL() (uint64, WritableFile, error) {
	a := &db.mu.nextWAL
	for a.making {
		db.bgCond.Wait()
	}
	if a.err != nil {
		err := a.err
		a.err = nil
		return 0, nil, err
	}
	if a.file != nil {
		num, f := a.num, a.file
		a.num, a.file = 0, nil
		return num, f, nil
	}
	num := db.mu.vs.newFileNum()
	f, err := db.createWAL(num)
	return num, f, err
}

// discardNextWAL closes and removes the WAL made ahead, if any (Close,
// once no goroutine is left).
func (db *DB) discardNextWAL() {
	a := &db.mu.nextWAL
	if a.file == nil {
		return
	}
	a.file.Close()
	db.fs.Remove(walName(db.walDir, a.num))
	a.num, a.file = 0, nil
}
