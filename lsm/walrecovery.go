package lsm

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"

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

// recoverWALs replays the WALs not yet flushed, oldest first, and returns
// the tables in no version that it proved obsolete (DB.mu held). The WALs
// are first read without applying them, so damage the recovery mode refuses
// fails the open before anything is written, and the sequences they hold
// are known to judge tables in no version. Then a fresh MANIFEST of the
// recovered version is written, the new WAL created, and each old WAL's
// tables recorded and the WAL deleted in turn: every log number a MANIFEST
// records names a WAL that exists.
func (db *DB) recoverWALs(files dbFiles) (map[uint64]bool, error) {
	var logs []uint64
	for _, n := range files.walNames {
		if t, num := parseFileName(n); t == fileWAL && num >= db.minLogNumber() {
			logs = append(logs, num)
		}
	}
	sort.Slice(logs, func(i, j int) bool { return logs[i] < logs[j] })
	manifestSeq := db.mu.lastSeq
	span, err := db.replayWALs(logs, true)
	if err != nil {
		return nil, err
	}
	obsolete, unfinished, err := db.obsoleteTables(files, manifestSeq, span)
	if err != nil {
		return nil, err
	}
	if err := db.removeUnfinishedFlushOutputs(unfinished); err != nil {
		return nil, err
	}
	if err := db.mu.vs.createManifest(); err != nil {
		return nil, err
	}
	newLog, f, err := db.newWAL()
	if err != nil {
		return nil, err
	}
	if err := db.switchLog(db.def, newLog, f); err != nil {
		return nil, err
	}
	for _, fam := range db.mu.vs.families.live {
		if fam.mem, err = db.newMemTable(newLog); err != nil {
			return nil, err
		}
	}
	if _, err := db.replayWALs(append(logs, newLog), false); err != nil {
		return nil, err
	}
	if len(logs) == 0 {
		for _, fam := range db.allFamilies() {
			e := &versionEdit{familyEdit: familyEdit{family: fam.id}}
			e.setLogNumber(newLog)
			if err := db.mu.vs.logAndApply(e); err != nil {
				return nil, err
			}
		}
	}
	return obsolete, nil
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
// continue the sequence (its first batch starts right after the last batch
// read from the WALs, RocksDB's rule for resuming point-in-time recovery);
// otherwise writes between them are lost and the open fails. The check
// counts only what the WALs hold: the MANIFEST's last sequence can be past
// a WAL's lost tail (a flush records the sequence of writes in the active
// WAL, unsynced then), and a later WAL continuing from it does not show
// that nothing was lost.
//
// With dryRun the WALs are only decoded and judged; otherwise each WAL's
// tables are recorded in the MANIFEST, one edit per column family, each
// with the next WAL's number as the family's log number, and the WAL is
// deleted before the next one is read, so recovery
// needs free space for one WAL's tables at a time, not for all of them.
// DB.mu is held.
//
// It returns the sequences the WALs' batches span. Without dryRun, the
// last entry of logs is the new WAL, which is not replayed: the last old
// WAL's edit records it as the log number.
func (db *DB) replayWALs(logs []uint64, dryRun bool) (walSpan, error) {
	st := &walReplay{mode: db.opts.WALRecoveryMode, dryRun: dryRun}
	all := logs
	if !dryRun {
		logs = logs[:len(logs)-1]
	}
	for i, num := range logs {
		edits := db.familyEdits()
		if err := db.replayWAL(num, edits, st); err != nil {
			for _, e := range edits {
				db.removeTables(e)
			}
			return walSpan{}, err
		}
		if st.mode == options.WALSkipAnyCorruptedRecords {
			st.stop = nil
		}
		db.mu.vs.markFileNumUsed(num)
		if !dryRun {
			if err := db.commitWAL(num, all[i+1], edits); err != nil {
				return walSpan{}, err
			}
		}
	}
	return st.span, nil
}

// walSpan is the sequences of the batches read from the WALs: first is the
// first batch's (0: none read), last the last sequence of any batch read
// (its sequence + count - 1).
type walSpan struct {
	first, last uint64
}

// read adds a batch of count records from sequence seq.
func (s *walSpan) read(seq, count uint64) {
	if s.first == 0 {
		s.first = seq
	}
	if end := seq + count; end > 0 {
		s.last = max(s.last, end-1)
	}
}

// walReplay is what replaying one WAL passes to the next.
type walReplay struct {
	mode   int
	dryRun bool
	stop   *walStop // where an earlier WAL ended early, if one did
	span   walSpan  // the batches read so far (nextWALBatch)
	first  bool     // no batch of the current WAL read yet
}

// nextWALBatch returns the next batch of WAL name (read by r) that st's
// recovery mode lets through, with ok false at the WAL's end: its real end,
// a torn tail or damage where the mode stops (recorded in st.stop), or
// records the mode skips (noted for LOG unless st.dryRun). The batch header
// is always checked, its records too with validate; the first batch of a WAL
// read after another one stopped early must continue its sequence.
func (db *DB) nextWALBatch(r *wal.Reader, name string, st *walReplay, validate bool) (br batchReader, ok bool, _ error) {
	base := filepath.Base(name)
	for {
		rec, rerr := r.Next()
		if rerr != nil {
			skip, s, err := walDamage(r, base, rerr, st.mode)
			if err != nil {
				return br, false, err
			}
			if skip {
				if !st.dryRun {
					db.mu.recoveryNotes = append(db.mu.recoveryNotes, fmt.Sprintf("Recovering WAL %s: skipping damaged records (wal_recovery_mode=3): %v", base, rerr))
				}
				continue
			}
			if s != nil && !st.dryRun {
				db.mu.recoveryNotes = append(db.mu.recoveryNotes, fmt.Sprintf("Recovering WAL %s: stopped at offset %d: %s", base, s.off, s.why))
			}
			if s != nil && st.stop == nil {
				st.stop = s
			}
			return br, false, nil
		}
		br, err := newBatchReader(rec)
		if err == nil && validate {
			// A dry pass reads only the header: the records are checked
			// when they are applied.
			_, _, err = validateBatch(rec)
		}
		if err != nil {
			if st.mode == options.WALSkipAnyCorruptedRecords {
				continue
			}
			return br, false, fmt.Errorf("%w: WAL %s at offset %d: %w", ErrCorruption, name, r.Offset(), err)
		}
		if st.first {
			if err := checkResume(st.stop, st.span, base, br.seq); err != nil {
				return br, false, err
			}
			st.first = false
		}
		st.span.read(br.seq, uint64(br.count))
		return br, true, nil
	}
}

// commitWAL records the tables replayed from WAL num and the next WAL's
// number in the MANIFEST, one edit per family (edits, in allFamilies'
// order), then deletes the WAL (DB.mu held). A crash between two edits
// leaves the WAL, whose records of the families already recorded the next
// replay skips (they are below those families' log numbers). A family
// whose log number is already past next (its writes up to a later WAL are
// in tables: a family flushed more often than one holding the oldest WAL)
// keeps it: recording next would make an open after a stop here replay
// records its tables hold, and merge operands twice.
func (db *DB) commitWAL(num, next uint64, edits []*versionEdit) error {
	for _, edit := range edits {
		logNum := next
		if f := db.familyByID(edit.family); f != nil {
			logNum = max(logNum, f.logNumber)
		}
		edit.setLogNumber(logNum)
		edit.setLastSeq(db.mu.lastSeq)
		if err := db.mu.vs.logAndApply(edit); err != nil {
			return fmt.Errorf("lsm: record the tables of WAL %s: %w", walName(db.walDir, num), err)
		}
	}
	db.fs.Remove(walName(db.walDir, num))
	return nil
}

// familyEdits returns an empty edit for each open family, in
// allFamilies' order (DB.mu held).
func (db *DB) familyEdits() []*versionEdit {
	fams := db.allFamilies()
	edits := make([]*versionEdit, len(fams))
	for i, f := range fams {
		edits[i] = &versionEdit{familyEdit: familyEdit{family: f.id}}
	}
	return edits
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
		return false, &walStop{name: name, off: r.CorruptionOffset(), why: err.Error()}, nil
	case mode == options.WALPointInTimeRecovery:
		return false, nil, fmt.Errorf("%w: WAL %s: %w; records that decode follow the damage, and point-in-time recovery would drop them (--wal_recovery_mode=3 skips damaged records)", ErrCorruption, name, err)
	}
	return false, nil, fmt.Errorf("%w: WAL %s: %w", ErrCorruption, name, err)
}

// checkResume is called with the first batch of a WAL read after an earlier
// one ended early: its first sequence must follow the last one the WALs
// gave (span, read before it). If they gave none, the writes lost where the
// earlier WAL ended cannot be shown to come after this batch: refused.
func checkResume(stop *walStop, span walSpan, name string, seq uint64) error {
	switch {
	case stop == nil || (span.first != 0 && seq == span.last+1):
		return nil
	case span.first == 0:
		return fmt.Errorf("%w: WAL %s ended early at offset %d (%s) before any write was recovered, and WAL %s holds later writes from sequence %d; recovering would drop the writes between them",
			ErrCorruption, stop.name, stop.off, stop.why, name, seq)
	}
	return fmt.Errorf("%w: WAL %s ended early at offset %d (%s), and WAL %s holds later writes from sequence %d (the last recovered is %d); recovering would drop the writes between them",
		ErrCorruption, stop.name, stop.off, stop.why, name, seq, span.last)
}

// replayWAL applies the batches of one WAL, each record to its column
// family's replay memtable, writing an L0 table to that family's edit
// (edits, in allFamilies' order) whenever its memtable fills and at the
// end; with st.dryRun it only decodes them (nextWALBatch notes their
// sequences in st.span). Records of a family the DB does not have are skipped, as
// RocksDB's recovery skips a dropped family's, and so are those in a WAL
// below their family's log number, which are in its tables already. st
// carries what earlier WALs left (see replayWALs).
func (db *DB) replayWAL(num uint64, edits []*versionEdit, st *walReplay) error {
	name := walName(db.walDir, num)
	data, err := db.fs.ReadFile(name)
	if err != nil {
		return fmt.Errorf("lsm: read WAL %s: %w", name, err)
	}
	fams := db.allFamilies()
	mems := make([]*memTable, len(fams)) // replay memtables, made on first use
	defer func() {
		for _, mem := range mems {
			if mem != nil {
				mem.unref() // replay memtables are never in a readState
			}
		}
	}()
	flushMem := func(i int) error {
		mem := mems[i]
		if mem == nil || mem.empty() {
			return nil
		}
		meta, err := db.writeLevel0([]*memTable{mem}, nil, 0, edits[i])
		if err != nil {
			return err
		}
		if meta != nil {
			edits[i].added = append(edits[i].added, newFileEntry{level: 0, meta: meta})
		}
		mem.unref()
		mems[i] = nil
		return nil
	}
	st.first = true
	r := wal.NewReader(data)
	for {
		br, ok, err := db.nextWALBatch(r, name, st, !st.dryRun)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		for !st.dryRun {
			kind, key, value, seq, ok, _ := br.next()
			if !ok {
				break
			}
			db.mu.lastSeq = max(db.mu.lastSeq, seq)
			i := familyIndex(fams, br.family)
			if i < 0 || num < fams[i].logNumber {
				continue
			}
			if mems[i] == nil {
				if mems[i], err = db.newMemTable(num); err != nil {
					return err
				}
			}
			mem := mems[i]
			if err := mem.add(seq, kind, key, value); err != nil {
				return fmt.Errorf("lsm: replay WAL %s: %w", name, err)
			}
			mem.logical += uint64(len(key)+len(value)) + memEntryOverhead
		}
		for i, mem := range mems {
			if mem != nil && mem.full() {
				if err := flushMem(i); err != nil {
					return err
				}
			}
		}
	}
	for i := range mems {
		if err := flushMem(i); err != nil {
			return err
		}
	}
	return nil
}

// familyIndex is the index in fams of family id, or -1.
func familyIndex(fams []*family, id uint32) int {
	for i, f := range fams {
		if f.id == id {
			return i
		}
	}
	return -1
}
