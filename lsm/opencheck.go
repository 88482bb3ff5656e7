package lsm

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/godbbench/godbbench/lsm/wal"
)

// ErrCorruption is wrapped by Open's errors when the DB's files contradict
// each other (a table the MANIFEST lists is missing, has another size or a
// footer that does not decode, files of a DB without CURRENT, a table
// holding writes the recovered state lacks) or a WAL's damage is refused by
// the WAL recovery mode. Open then deletes nothing and writes nothing but
// LOCK.
var ErrCorruption = errors.New("lsm: Corruption")

// Open never deletes a file it cannot prove obsolete:
//
//   - Without CURRENT, the directory must hold no table and no WAL (RocksDB
//     refuses WALs, "While creating a new Db, wal_dir contains existing log
//     file"; this engine refuses tables too, which RocksDB deletes) and no
//     MANIFEST that lists a table (a MANIFEST listing none is what a crash
//     leaves between creating a new DB's MANIFEST and CURRENT).
//   - Every table of the recovered version must exist with the size the
//     MANIFEST records and end in a footer that decodes, and the WAL its
//     log number names must exist (this engine records only the number of
//     a WAL it has created, and deletes a WAL only after recording a
//     higher one). RocksDB checks the tables too (it opens each one when
//     max_open_files is -1, reading the footer), but not the WAL unless
//     track_and_verify_wals_in_manifest is set.
//   - Every file number found in either directory is marked used, so no new
//     file can overwrite one.
//   - A table the version does not list is deleted only when it decodes and
//     every write in it is in the recovered state: its sequence numbers are
//     at most the MANIFEST's last sequence, or within the range the WALs
//     replay. It is then a flush or compaction output whose MANIFEST edit
//     was never written, or an input whose deletion was interrupted. One
//     holding other writes means the MANIFEST lost edits, and Open fails;
//     one that does not decode (a crash while it was written) is left in
//     place.
//   - Except the output of a flush the MANIFEST records as begun and not
//     ended (pendingflush.go): it is deleted, decoding or not, when the WAL
//     the flush's begin edit names exists (its logged writes are replayed;
//     those that skipped the WAL are lost, as RocksDB loses them), and Open
//     fails when that WAL is missing or below the MANIFEST's log number, or
//     the table holds sequences outside the flush's range.

// dbFiles is what Open found in the DB and WAL directories.
type dbFiles struct {
	dbNames, walNames []string
}

func (db *DB) listFiles() (dbFiles, error) {
	var f dbFiles
	var err error
	if f.dbNames, err = db.fs.List(db.dir); err != nil {
		return f, fmt.Errorf("lsm: list %s: %w", db.dir, err)
	}
	f.walNames = f.dbNames
	if db.walDir != db.dir {
		if f.walNames, err = db.fs.List(db.walDir); err != nil {
			return f, fmt.Errorf("lsm: list %s: %w", db.walDir, err)
		}
	}
	return f, nil
}

// checkNoCurrent refuses to create a new DB over another DB's files.
func (db *DB) checkNoCurrent(f dbFiles) error {
	for _, n := range f.walNames {
		if t, _ := parseFileName(n); t == fileWAL {
			return fmt.Errorf("%w: While creating a new Db, wal_dir contains existing log file: %s (CURRENT is missing in %s)", ErrCorruption, n, db.dir)
		}
	}
	var found []string
	for _, n := range f.dbNames {
		switch t, _ := parseFileName(n); t {
		case fileTable, fileBlob:
			found = append(found, n)
		case fileManifest:
			if db.manifestListsTables(n) {
				found = append(found, n)
			}
		}
	}
	if len(found) == 0 {
		return nil
	}
	sort.Strings(found)
	return fmt.Errorf("%w: CURRENT is missing in %s, which holds %s; not creating a new DB over them", ErrCorruption, db.dir, strings.Join(found, ", "))
}

// manifestListsTables reports whether the MANIFEST name lists a table, or
// cannot be read to prove it does not.
func (db *DB) manifestListsTables(name string) bool {
	data, err := db.fs.ReadFile(filepath.Join(db.dir, name))
	if err != nil {
		return true
	}
	r := wal.NewReader(data)
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return false
		}
		if err != nil {
			return true
		}
		e, err := decodeEdit(rec)
		if err != nil || len(e.added) > 0 {
			return true
		}
	}
}

// markFileNumbersUsed keeps every number in either directory from being
// handed out again.
func (db *DB) markFileNumbersUsed(f dbFiles) {
	for _, names := range [][]string{f.dbNames, f.walNames} {
		for _, n := range names {
			if t, num := parseFileName(n); t != fileOther {
				db.mu.vs.markFileNumUsed(num)
			}
		}
	}
}

// verifyTables checks that every table of the current version exists with
// the size the MANIFEST records and ends in a footer that decodes (magic
// number, checksum, format version, block handles inside the file): one
// open, fstat and 52-byte pread per table. No Reader is opened, so the
// table cache opens each table on first use as before and nothing is kept
// for tables a run never reads.
func (db *DB) verifyTables() error {
	manifest := manifestName(db.mu.vs.manifestNum)
	for _, f := range db.allFamilies() {
		for _, files := range f.current.levels {
			for _, m := range files {
				if err := db.verifyTable(manifest, m); err != nil {
					return err
				}
			}
		}
	}
	return db.verifyBlobFiles(manifest)
}

func (db *DB) verifyTable(manifest string, m *fileMeta) error {
	name := tableName(db.dir, m.num)
	f, err := db.fs.OpenReadOnly(name)
	if err != nil {
		return fmt.Errorf("%w: %s lists %s, which cannot be opened: %w", ErrCorruption, manifest, filepath.Base(name), err)
	}
	defer db.closeRead(f)
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("lsm: stat %s: %w", name, err)
	}
	if uint64(st.Size()) != m.size {
		return fmt.Errorf("%w: %s is %d bytes, but %s records %d", ErrCorruption, filepath.Base(name), st.Size(), manifest, m.size)
	}
	if err := checkTableFooter(f, st.Size(), name); err != nil {
		return fmt.Errorf("%w: %s lists %s, whose footer is bad: %w", ErrCorruption, manifest, filepath.Base(name), err)
	}
	return nil
}

// verifyLogNumber checks that the WAL the MANIFEST's log number names
// exists: the MANIFEST only ever records the number of a WAL already
// created, and that WAL is deleted only after a later edit records a higher
// number, so its absence means unflushed writes were lost with it.
func (db *DB) verifyLogNumber(f dbFiles) error {
	n := db.def.logNumber
	if n == 0 {
		return nil
	}
	for _, name := range f.walNames {
		if t, num := parseFileName(name); t == fileWAL && num == n {
			return nil
		}
	}
	return fmt.Errorf("%w: %s records that WAL %s holds writes not in any table, but %s is missing",
		ErrCorruption, manifestName(db.mu.vs.manifestNum), filepath.Base(walName(db.walDir, n)), walName(db.walDir, n))
}

// obsoleteTables returns the tables in the DB directory that the current
// version does not list and whose writes the recovered state holds: every
// sequence number in the table is at most manifestSeq (the MANIFEST's last
// sequence, whose writes are in its tables or in the WALs it keeps), or
// within the range of the WALs' batches (wals; none when wals.first is 0).
// It fails if a table holds writes outside those ranges: the MANIFEST lost
// the edit that listed it.
//
// A table that an unfinished flush was writing (unfinishedFlushOutput) is
// obsolete whatever its sequences, and returned in unfinished rather than
// in obsolete, to be deleted before recovery writes anything.
func (db *DB) obsoleteTables(f dbFiles, manifestSeq uint64, wals walSpan) (obsolete map[uint64]bool, unfinished []uint64, _ error) {
	live := db.liveTables()
	obsolete = map[uint64]bool{}
	for _, n := range f.dbNames {
		t, num := parseFileName(n)
		if t != fileTable || live[num] {
			continue
		}
		props, ok := db.tableSeqs(filepath.Join(db.dir, n), num)
		if gone, err := db.unfinishedFlushOutput(n, num, props, ok, wals); err != nil {
			return nil, nil, err
		} else if gone {
			unfinished = append(unfinished, num)
			continue
		}
		if !ok {
			obsolete[keepBlobFiles] = true
			continue // does not decode: leave it
		}
		inWALs := wals.first > 0 && props.smallestSeq >= wals.first && props.largestSeq <= wals.last
		if props.largestSeq > manifestSeq && !inWALs {
			return nil, nil, fmt.Errorf("%w: %s is in no version but holds writes (sequences %d to %d) that the recovered state lacks (%s records up to %d, the WALs hold %s): %s lost edits",
				ErrCorruption, n, props.smallestSeq, props.largestSeq, manifestName(db.mu.vs.manifestNum), manifestSeq, walRange(wals), manifestName(db.mu.vs.manifestNum))
		}
		obsolete[num] = true
	}
	db.obsoleteBlobFiles(f, obsolete)
	return obsolete, unfinished, nil
}

// liveTables is the set of the table numbers of every column family's
// current version.
func (db *DB) liveTables() map[uint64]bool {
	live := map[uint64]bool{}
	for _, f := range db.allFamilies() {
		for _, files := range f.current.levels {
			for _, m := range files {
				live[m.num] = true
			}
		}
	}
	return live
}

func walRange(wals walSpan) string {
	if wals.first == 0 {
		return "none"
	}
	return fmt.Sprintf("%d to %d", wals.first, wals.last)
}

// tableSeqs reads a table's properties; ok is false if it does not decode.
func (db *DB) tableSeqs(name string, num uint64) (props tableProps, ok bool) {
	file, err := db.fs.OpenReadOnly(name)
	if err != nil {
		return props, false
	}
	st, err := file.Stat()
	db.closeRead(file)
	if err != nil {
		return props, false
	}
	// Its own number: a table reader's blocks are cached under it.
	t, err := db.openTableFile(name, st.Size(), num, false)
	if err != nil {
		return props, false
	}
	props = t.props()
	t.Close()
	return props, true
}
