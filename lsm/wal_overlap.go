package lsm

import (
	"fmt"
	"sync"

	"github.com/godbbench/godbbench/lsm/wal"
)

// Overlapping a large group's WAL write with its memtable insert. A commit
// group's WAL write (write(2) of the encoded records, fsync when asked) and
// its memtable insert touch nothing in common, so for a large group the
// leader writes the WAL from a second goroutine while the group inserts.
// Nothing becomes visible earlier: the group's sequence is published only
// after both are done. If the WAL write fails, the group's entries are in
// the active memtable but never published, and they can never reach a
// table either: the failure stops writes (DB.bgErr), and with them every
// memtable switch and Flush, so the active memtable is only ever dropped,
// and reopening replays the WAL as written. With the early hand-off
// (publish.go) the second goroutine passes the writer queue on once the
// WAL write succeeded, never before: the next leader appends to the same
// log writer.
//
// Why: with db_bench's --batch_size=1000 (ToplingDB's suite: 5M keys of 8
// bytes, 50-byte values) each group is one 58 KB batch. The write(2) of it
// was 17% of native fillseq's CPU samples, all on the writer's critical
// path, in series with an insert that the second core could have been
// doing meanwhile.
//
// walOverlapBytes is the group size from which the write goes to a second
// goroutine: starting one costs about a microsecond, and a 16 KiB group
// takes tens of microseconds to write and insert.
const walOverlapBytes = 16 << 10

// walWrite is one overlapped WAL write. It lives in the leader's
// commitGroup, so an overlapped write allocates nothing, and the next
// leader, to whom the second goroutine may pass the queue, overlaps its own.
type walWrite struct {
	log     *wal.Writer
	logFile WritableFile
	// handOff: once the records are written, the second goroutine passes
	// the writer queue on (publish.go); handedOff: it did.
	handOff, handedOff bool
	err                error
	wg                 sync.WaitGroup
}

// canOverlapWAL reports whether a second core can take the WAL write.
func (db *DB) canOverlapWAL() bool { return db.maxProcs() > 1 }

// writeLog writes the log's pending records and syncs when asked.
func writeLog(log *wal.Writer, logFile WritableFile, sync bool) error {
	if err := log.Flush(); err != nil {
		return fmt.Errorf("lsm: WAL write: %w", err)
	}
	if sync {
		if err := logFile.Sync(); err != nil {
			return fmt.Errorf("lsm: WAL sync: %w", err)
		}
	}
	return nil
}

// logAndInsert writes the group w leads to the WAL from a second goroutine
// while the group inserts into mem, and returns the first error of the two,
// the WAL's first. With handOff the second goroutine passes the writer queue
// on as soon as the WAL write succeeds, as an early hand-off does
// (commit.go); handedOff reports whether it did.
func (db *DB) logAndInsert(mem *memTable, w *writer, log *wal.Writer, logFile WritableFile, handOff bool) (handedOff bool, err error) {
	ww := &w.grp.wal
	ww.log, ww.logFile, ww.handOff, ww.handedOff, ww.err = log, logFile, handOff, false, nil
	ww.wg.Add(1)
	go db.writeLogAsync(&w.grp)
	err = db.insertGroup(mem, w)
	ww.wg.Wait()
	if ww.err != nil {
		err = ww.err
	}
	ww.log, ww.logFile = nil, nil
	return ww.handedOff, err
}

// writeLogAsync is logAndInsert's second goroutine, for group g.
func (db *DB) writeLogAsync(g *commitGroup) {
	ww := &g.wal
	ww.err = writeLog(ww.log, ww.logFile, g.sync)
	if ww.err == nil && ww.handOff {
		db.handOff(g)
		ww.handedOff = true
	}
	ww.wg.Done()
}
