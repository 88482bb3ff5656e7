package lsm

import (
	"fmt"
	"io"

	"github.com/godbbench/godbbench/lsm/wal"
	"github.com/godbbench/godbbench/options"
)

// walStop records where recovery stopped reading the WALs early: a torn
// tail, or damage with nothing that decodes after it (point in time).
type walStop struct {
	name string
	off  int64
	why  string
}

// replayWALs applies the WALs numbered logs, oldest first, under
// Options.WALRecoveryMode, with RocksDB's meanings:
//
//	0 tolerate corrupted tail records: a torn tail ends a WAL; other damage
//	  fails the open.
//	1 absolute consistency: any damage, a torn tail too, fails the open.
//	2 point in time (default): recovery stops at the first damage or torn
//	  tail. Unlike RocksDB, which drops what follows, the open fails when a
//	  record that decodes follows the damage in the same WAL, so acknowledged
//	  writes are never dropped silently.
//	3 skip any corrupted records: damaged records are skipped, the rest
//	  applied.
//
// In modes 0 and 2, once a WAL ended early, a later WAL's records must
// continue the sequence (its first batch starts at the last recovered
// sequence + 1, RocksDB's rule for resuming point-in-time recovery);
// otherwise writes between them are lost and the open fails.
//
// With dryRun the WALs are only decoded and judged; otherwise each WAL's
// tables are recorded in the MANIFEST with the log number past it and the
// WAL is deleted before the next one is read, so recovery needs free space
// for one WAL's tables at a time, not for all of them.
//
// It returns the sequence of the first batch replayed (0 if none). Without
// dryRun, the last entry of logs is the new WAL, which is not replayed: the
// last old WAL's edit records it as the log number.
func (db *DB) replayWALs(logs []uint64, dryRun bool) (firstSeq uint64, err error) {
	st := &walReplay{mode: db.opts.WALRecoveryMode, dryRun: dryRun}
	all := logs
	if !dryRun {
		logs = logs[:len(logs)-1]
	}
	for i, num := range logs {
		edit := &versionEdit{}
		if err := db.replayWAL(num, edit, st); err != nil {
			db.removeTables(edit)
			return 0, err
		}
		if st.mode == options.WALSkipAnyCorruptedRecords {
			st.stop = nil
		}
		db.vs.markFileNumUsed(num)
		if !dryRun {
			if err := db.commitWAL(num, all[i+1], edit); err != nil {
				return 0, err
			}
		}
	}
	return st.firstSeq, nil
}

// walReplay is what replaying one WAL passes to the next.
type walReplay struct {
	mode     int
	dryRun   bool
	stop     *walStop // where an earlier WAL ended early, if one did
	firstSeq uint64   // the first batch's sequence; 0 until one is read
}

// commitWAL records the tables replayed from WAL num and the next WAL's
// number in the MANIFEST, then deletes the WAL (DB.mu held).
func (db *DB) commitWAL(num, next uint64, edit *versionEdit) error {
	edit.setLogNumber(next)
	edit.setLastSeq(db.lastSeq)
	if err := db.vs.logAndApply(edit); err != nil {
		return fmt.Errorf("lsm: record the tables of WAL %s: %w", walName(db.walDir, num), err)
	}
	db.fs.Remove(walName(db.walDir, num))
	return nil
}

// walDamage decides what a WAL replay does with one result of
// wal.Reader.Next that is not a record: io.EOF or corruption. It returns
// skip to read on (mode 3), a stop for a torn tail or damage with nothing
// after it, or an error.
func walDamage(r *wal.Reader, name string, err error, mode int) (skip bool, stop *walStop, _ error) {
	if err == io.EOF {
		torn, off := r.Torn()
		if !torn {
			return false, nil, nil
		}
		if mode == options.WALAbsoluteConsistency {
			return false, nil, fmt.Errorf("%w: WAL %s: torn record at offset %d (wal_recovery_mode=1 tolerates none)", ErrCorruption, name, off)
		}
		return false, &walStop{name: name, off: off, why: "torn tail"}, nil
	}
	switch {
	case mode == options.WALSkipAnyCorruptedRecords:
		return true, nil, nil
	case mode == options.WALPointInTimeRecovery && !r.DataAfterCorruption():
		return false, &walStop{name: name, off: r.Offset(), why: err.Error()}, nil
	case mode == options.WALPointInTimeRecovery:
		return false, nil, fmt.Errorf("%w: WAL %s: %w; records that decode follow the damage, and point-in-time recovery would drop them (--wal_recovery_mode=3 skips damaged records)", ErrCorruption, name, err)
	}
	return false, nil, fmt.Errorf("%w: WAL %s: %w", ErrCorruption, name, err)
}

// checkResume is called with the first batch of a WAL read after an earlier
// one ended early: its first sequence must follow the last one recovered.
func (db *DB) checkResume(stop *walStop, name string, seq uint64) error {
	if stop == nil || seq == db.lastSeq+1 {
		return nil
	}
	return fmt.Errorf("%w: WAL %s ended early at offset %d (%s), and WAL %s holds later writes from sequence %d (the last recovered is %d); recovering would drop the writes between them",
		ErrCorruption, stop.name, stop.off, stop.why, name, seq, db.lastSeq)
}
