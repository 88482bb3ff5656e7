package lsm

import (
	"fmt"
	"path/filepath"
)

// A flush announces itself in the MANIFEST before it writes anything: an
// edit with a flush-begin field (tag 6: the table number it will write, the
// oldest WAL its memtables were logged to, their sequence range, and
// whether some of their writes skipped the WAL) is appended and fsynced
// first. Then the table is written and fsynced, the DB directory fsynced,
// and the usual edit adds the table with a flush-end field (tag 7) naming
// the same number. The flush's WALs are deleted only after that edit.
//
// A process that dies between the two edits leaves a table in no version.
// Its writes may be beyond everything the MANIFEST and the WALs hold (with
// --disable_wal, none of them is in a WAL), so the sequence test of
// obsoleteTables cannot prove it obsolete. The begin edit can: when the
// replayed MANIFEST holds a flush begun for that table number and no end
// (no flush-end field and no edit adding the table), the table is that
// flush's unfinished output. If the WAL the begin edit names still exists,
// every logged write of the table is replayed from it (and the WALs after
// it, deleted only later), the writes that skipped the WAL are lost, as
// RocksDB loses them, and the table is deleted. If that WAL is gone, or
// the MANIFEST's log number is past it (only the end edit moves it there),
// the flush's end was recorded and the MANIFEST lost it: Open fails with
// ErrCorruption naming the table. It fails the same way, keeping the
// table, when every write of the flush was logged and the table holds a
// sequence past the last one the WALs replay: they lost records (a torn
// tail after a power loss) that only the table still has. The begin edit
// changes no version.
//
// Such a table is deleted before recovery writes its new MANIFEST, which
// keeps no flush-begin fields: a crash later in the same recovery must not
// leave it beside a MANIFEST that no longer explains it.

// beginFlush allocates the number of the table a flush of mems will write
// and records the flush's start in the MANIFEST, synced (DB.mu held;
// released during the write).
func (db *DB) beginFlush(mems []*memTable) (uint64, error) {
	p := pendingFlush{
		tableNum:    db.mu.vs.newFileNum(),
		walNum:      mems[0].logNum,
		smallestSeq: mems[0].firstSeq,
		largestSeq:  mems[len(mems)-1].lastSeq,
	}
	for _, m := range mems {
		p.unlogged = p.unlogged || m.unlogged.Load()
	}
	if err := db.mu.vs.logAndApply(&versionEdit{flushBegun: []pendingFlush{p}}); err != nil {
		return 0, err
	}
	return p.tableNum, nil
}

// trackFlushes updates the flushes begun and not ended with e, one edit of
// the MANIFEST being replayed. A flush ends with a flush-end field or with
// an edit that adds its table.
func (vs *versionSet) trackFlushes(e *versionEdit) {
	for _, p := range e.flushBegun {
		if vs.unfinishedFlushes == nil {
			vs.unfinishedFlushes = map[uint64]pendingFlush{}
		}
		vs.unfinishedFlushes[p.tableNum] = p
	}
	for _, num := range e.flushEnded {
		delete(vs.unfinishedFlushes, num)
	}
	for _, a := range e.added {
		delete(vs.unfinishedFlushes, a.meta.num)
	}
}

// checkUnfinishedFlushes fails when a table in no version is the output of
// a flush the MANIFEST records as begun and not ended, and the WAL that
// flush's begin edit names is missing or below the MANIFEST's log number:
// only the flush's end edit moves the log number past that WAL, and the
// WAL is deleted only after it, so the MANIFEST lost that edit.
func (db *DB) checkUnfinishedFlushes(f dbFiles, live map[uint64]bool) error {
	flushes := db.mu.vs.unfinishedFlushes
	if len(flushes) == 0 {
		return nil
	}
	wals := map[uint64]bool{}
	for _, n := range f.walNames {
		if t, num := parseFileName(n); t == fileWAL {
			wals[num] = true
		}
	}
	for _, n := range f.dbNames {
		t, num := parseFileName(n)
		p, ok := flushes[num]
		if t != fileTable || live[num] || !ok {
			continue
		}
		wal := walName(db.walDir, p.walNum)
		why := ""
		switch {
		case !wals[p.walNum]:
			why = wal + " is missing"
		case p.walNum < db.minLogNumber():
			why = fmt.Sprintf("its log number %d is past that WAL", db.minLogNumber())
		default:
			continue
		}
		manifest := manifestName(db.mu.vs.manifestNum)
		return fmt.Errorf("%w: %s is in no version; %s records that a flush began writing it (its logged writes in %s) and not that it ended, but %s: %s lost edits",
			ErrCorruption, n, manifest, filepath.Base(wal), why, manifest)
	}
	return nil
}

// unfinishedFlushOutput reports whether table num (file name), in no
// version, is the output of a flush begun and not ended whose WAL exists
// (checkUnfinishedFlushes has refused the DB otherwise), and so obsolete.
// props are the table's properties, ok false when it does not decode (the
// flush died while writing it); a table that decodes must hold only
// sequences of the flush's range, and, when every write of the flush was
// logged, none past the last sequence of the WALs' batches (wals; else the
// WALs lost writes the table holds, and it is kept: the MANIFEST's last
// sequence does not show they are elsewhere, as a flush may record one
// from the active WAL, past what it kept). A flush with writes that
// skipped the WAL cannot be judged so: those writes are lost, as RocksDB
// loses them. It notes the deletion for LOG.
func (db *DB) unfinishedFlushOutput(name string, num uint64, props tableProps, ok bool, wals walSpan) (bool, error) {
	p, found := db.mu.vs.unfinishedFlushes[num]
	if !found {
		return false, nil
	}
	if ok && (props.smallestSeq < p.smallestSeq || props.largestSeq > p.largestSeq) {
		return false, fmt.Errorf("%w: %s holds sequences %d to %d, outside the %d to %d of the flush that %s records writing it",
			ErrCorruption, name, props.smallestSeq, props.largestSeq, p.smallestSeq, p.largestSeq, manifestName(db.mu.vs.manifestNum))
	}
	if ok && !p.unlogged && props.largestSeq > wals.last {
		return false, fmt.Errorf("%w: %s is in no version; %s records that a flush began writing it and every write it flushed was logged, but it holds sequences up to %d and the WALs replay only to %d: they lost records it still holds",
			ErrCorruption, name, manifestName(db.mu.vs.manifestNum), props.largestSeq, wals.last)
	}
	lost := ""
	if p.unlogged {
		lost = "; its writes that skipped the WAL are lost"
	}
	db.mu.recoveryNotes = append(db.mu.recoveryNotes, fmt.Sprintf("Deleting %s, the output of a flush that ended before its MANIFEST edit (sequences %d to %d; its logged writes are replayed from %s%s)",
		name, p.smallestSeq, p.largestSeq, filepath.Base(walName(db.walDir, p.walNum)), lost))
	return true, nil
}

// removeUnfinishedFlushOutputs deletes the tables unfinishedFlushOutput
// proved obsolete and fsyncs the DB directory, before recovery writes a
// MANIFEST that no longer records their flushes.
func (db *DB) removeUnfinishedFlushOutputs(tables []uint64) error {
	if len(tables) == 0 {
		return nil
	}
	for _, num := range tables {
		if err := db.fs.Remove(tableName(db.dir, num)); err != nil {
			return fmt.Errorf("lsm: delete %s: %w", tableName(db.dir, num), err)
		}
	}
	if err := db.fs.SyncDir(db.dir); err != nil {
		return fmt.Errorf("lsm: sync DB dir: %w", err)
	}
	return nil
}
