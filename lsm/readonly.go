package lsm

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/godbbench/godbbench/lsm/wal"
	"github.com/godbbench/godbbench/options"
)

// ErrReadOnly is returned by Write, Flush and Compact on a DB opened with
// Options.ReadOnly; the text is RocksDB's status for the same calls.
var ErrReadOnly = errors.New("Not implemented: Not supported operation in read only mode.")

// openReadOnly finishes Open for Options.ReadOnly, as RocksDB's
// OpenForReadOnly does: the DB must exist (CURRENT is read first; a missing
// one is RocksDB's "IO error: No such file or directory: While opening a
// file for sequentially reading: <dir>/CURRENT: ..."), the MANIFEST gives the
// tables, and the WALs it does not cover are replayed into memtables that
// stay in memory, each record in its family's. The families opened are
// Config.ColumnFamilies: as in RocksDB, a read-only open may leave out
// families the DB has (familySet.keepNamed), but not name one it lacks.
// Nothing is created, written, renamed or deleted: no LOCK
// is taken (RocksDB takes none either, so a writer may hold the DB), no
// table, MANIFEST, WAL or LOG is written, and no flush or compaction ever
// runs. Writes, Flush and Compact fail with ErrReadOnly.
func (db *DB) openReadOnly() (*DB, error) {
	db.guard.shut() // it holds no lock and deletes nothing
	current := filepath.Join(db.dir, currentName)
	if _, err := db.fs.ReadFile(current); err != nil {
		if errors.Is(err, errNotExist) {
			return nil, fmt.Errorf("IO error: No such file or directory: While opening a file for sequentially reading: %s: No such file or directory", current)
		}
		return nil, fmt.Errorf("IO error: While opening a file for sequentially reading: %s: %w", current, err)
	}
	if err := db.probeDirectIO(currentName); err != nil {
		return nil, err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	dbNames, err := db.fs.List(db.dir)
	if err != nil {
		return nil, fmt.Errorf("lsm: list %s: %w", db.dir, err)
	}
	found, err := db.mu.vs.recover(db.numLevels, dbNames)
	if err != nil {
		return nil, err
	}
	if err := db.mu.vs.families.keepNamed(db.familyNames); err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("IO error: No such file or directory: While opening a file for sequentially reading: %s: No such file or directory", current)
	}
	if err := db.verifyTables(); err != nil {
		return nil, err
	}
	db.mu.lastSeq = db.mu.vs.lastSeq
	names, err := db.fs.List(db.walDir)
	if err != nil && !errors.Is(err, errNotExist) {
		return nil, fmt.Errorf("lsm: list %s: %w", db.walDir, err)
	}
	var logs []uint64
	for _, n := range names {
		if t, num := parseFileName(n); t == fileWAL && num >= db.minLogNumber() {
			logs = append(logs, num)
		}
	}
	sort.Slice(logs, func(i, j int) bool { return logs[i] < logs[j] })
	st := &walReplay{mode: db.opts.WALRecoveryMode}
	for _, num := range logs {
		if err := db.loadWAL(num, st); err != nil {
			db.dropMemTables()
			return nil, err
		}
		if st.mode == options.WALSkipAnyCorruptedRecords {
			st.stop = nil
		}
	}
	for _, f := range db.allFamilies() {
		if f.mem == nil {
			if f.mem, err = db.newMemTable(0); err != nil {
				db.dropMemTables()
				return nil, err
			}
		}
	}
	db.visibleSeq.Store(db.mu.lastSeq)
	for _, f := range db.allFamilies() {
		f.publishReads()
	}
	return db, nil
}

// loadWAL inserts the records of one WAL into their families'
// memtables, starting a new one whenever a family's active one is full;
// the full ones stay as immutable memtables, never flushed (DB.mu held).
// Records of a family not opened, and those in a WAL below their family's
// log number (already in its tables), are skipped, as a read-write
// replay skips them. Damage is judged by st's recovery mode exactly as
// replayWAL judges it, so a read-only open recovers what a read-write
// open would, and refuses what it would refuse.
func (db *DB) loadWAL(num uint64, st *walReplay) error {
	name := walName(db.walDir, num)
	data, err := db.fs.ReadFile(name)
	if err != nil {
		return fmt.Errorf("lsm: read WAL %s: %w", name, err)
	}
	st.first = true
	r := wal.NewReader(data)
	for {
		br, ok, err := db.nextWALBatch(r, name, st, true)
		if err != nil || !ok {
			return err
		}
		for {
			kind, key, value, seq, ok, err := br.next()
			if err != nil {
				return fmt.Errorf("lsm: replay WAL %s: %w", name, err)
			}
			if !ok {
				break
			}
			db.mu.lastSeq = max(db.mu.lastSeq, seq)
			f := db.familyByID(br.family)
			if f == nil || num < f.logNumber {
				continue
			}
			if f.mem == nil || f.mem.full() {
				mem, err := db.newMemTable(num)
				if err != nil {
					return err
				}
				if f.mem != nil {
					f.imm = append(f.imm, f.mem)
				}
				f.mem = mem
			}
			if err := f.mem.add(seq, kind, key, value); err != nil {
				return fmt.Errorf("lsm: replay WAL %s: %w", name, err)
			}
			f.mem.logical += uint64(len(key)+len(value)) + memEntryOverhead
		}
	}
}

// dropMemTables releases the memtables of a failed read-only open.
func (db *DB) dropMemTables() {
	for _, f := range db.allFamilies() {
		for _, m := range f.imm {
			m.unref()
		}
		if f.mem != nil {
			f.mem.unref()
		}
		f.mem, f.imm = nil, nil
	}
}
