package lsm

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/godbbench/godbbench/lsm/wal"
)

// tableEditStopFS, once armed, fails every directory fsync after a table
// is created. A flush then stops after its begin edit and its synced
// table, before the edit that adds the table: what a process killed there
// leaves.
type tableEditStopFS struct {
	FS
	armed, tableMade atomic.Bool
}

func (f *tableEditStopFS) Create(name string) (WritableFile, error) {
	if t, _ := parseFileName(filepath.Base(name)); t == fileTable && f.armed.Load() {
		f.tableMade.Store(true)
	}
	return f.FS.Create(name)
}

func (f *tableEditStopFS) SyncDir(dir string) error {
	if f.tableMade.Load() {
		return errStopped
	}
	return f.FS.SyncDir(dir)
}

func putUnlogged(t *testing.T, db *DB, k, v string) {
	t.Helper()
	b := NewBatch()
	b.Put([]byte(k), []byte(v))
	if err := db.Write(b, WriteOptions{DisableWAL: true}); err != nil {
		t.Fatal(err)
	}
}

// interruptedFlush is a DB whose last flush stopped before the edit adding
// its table. Keys 0-99 are in a table of the version, keys 100-149 in the
// flushed memtable's WAL, keys 150-199 were in that memtable only (written
// with the WAL disabled). It returns the directory, the stopped flush's
// table and its begin edit.
func interruptedFlush(t *testing.T) (dir, table string, begun pendingFlush) {
	t.Helper()
	return interruptedFlushWith(t, 150)
}

// interruptedFlushWith is interruptedFlush with the keys from unloggedFrom
// on written with the WAL disabled (200: none).
func interruptedFlushWith(t *testing.T, unloggedFrom int) (dir, table string, begun pendingFlush) {
	t.Helper()
	dir = t.TempDir()
	fs := &tableEditStopFS{FS: DefaultFS}
	db := mustOpenFS(t, dir, fs, testOptions())
	for i := 0; i < 200; i++ {
		k, v := fmt.Sprintf("key%05d", i), fmt.Sprintf("value%05d", i)
		if i < unloggedFrom {
			put(t, db, k, v)
		} else {
			putUnlogged(t, db, k, v)
		}
		if i == 99 {
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	before := filesOf(t, dir, fileTable)
	fs.armed.Store(true)
	if err := db.Flush(); !errors.Is(err, errStopped) {
		t.Fatalf("flush with directory fsyncs failing: %v", err)
	}
	db.Close()
	after := filesOf(t, dir, fileTable)
	if len(after) != len(before)+1 {
		t.Fatalf("tables %v after the stopped flush, %v before", after, before)
	}
	table = after[len(after)-1]
	var found int
	for _, e := range manifestEdits(t, dir) {
		for _, p := range e.flushBegun {
			if tableName(dir, p.tableNum) == table {
				begun, found = p, found+1
			}
		}
	}
	if found != 1 {
		t.Fatalf("%d begin edits name %s", found, table)
	}
	return dir, table, begun
}

// manifestEdits decodes the edits of the MANIFEST CURRENT names.
func manifestEdits(t *testing.T, dir string) []*versionEdit {
	t.Helper()
	cur, err := os.ReadFile(filepath.Join(dir, currentName))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, strings.TrimSpace(string(cur))))
	if err != nil {
		t.Fatal(err)
	}
	var edits []*versionEdit
	for r := wal.NewReader(data); ; {
		rec, err := r.Next()
		if err == io.EOF {
			return edits
		}
		if err != nil {
			t.Fatal(err)
		}
		e, err := decodeEdit(rec)
		if err != nil {
			t.Fatal(err)
		}
		edits = append(edits, e)
	}
}

// rewriteManifest replaces the DB's MANIFEST with one of the same edits,
// each passed through change first.
func rewriteManifest(t *testing.T, dir string, change func(e *versionEdit)) {
	t.Helper()
	var records [][]byte
	for _, e := range manifestEdits(t, dir) {
		change(e)
		records = append(records, e.encode(nil))
	}
	for _, m := range filesOf(t, dir, fileManifest) {
		if err := os.Remove(m); err != nil {
			t.Fatal(err)
		}
	}
	writeManifest(t, dir, records, false, -1)
}

func checkRange(t *testing.T, db *DB, from, to int, want bool) {
	t.Helper()
	for i := from; i < to; i++ {
		v, ok := getString(t, db, fmt.Sprintf("key%05d", i))
		if ok != want || (ok && v != fmt.Sprintf("value%05d", i)) {
			t.Fatalf("key%05d: %q, found %v, want found %v", i, v, ok, want)
		}
	}
}

func checkExists(t *testing.T, path string, want bool) {
	t.Helper()
	_, err := os.Stat(path)
	if (err == nil) != want {
		t.Fatalf("%s: exists %v, want %v (%v)", filepath.Base(path), err == nil, want, err)
	}
}

// The begin edit records the flushed memtable's WAL, the range of its
// sequences and its unlogged writes; with that WAL present the table is
// deleted, its logged writes come back from the WAL and the unlogged ones
// are lost.
func TestUnfinishedFlushOutputDeleted(t *testing.T) {
	dir, table, begun := interruptedFlush(t)
	if !begun.unlogged || begun.smallestSeq > 101 || begun.largestSeq != 200 {
		t.Fatalf("begin edit %+v: want unlogged writes within sequences 101-200", begun)
	}
	checkExists(t, walName(dir, begun.walNum), true)
	db := mustOpen(t, dir, testOptions())
	checkExists(t, table, false)
	checkRange(t, db, 0, 150, true)
	checkRange(t, db, 150, 200, false)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(filepath.Join(dir, logName))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Deleting " + filepath.Base(table) + ", the output of a flush"; !strings.Contains(string(log), want) {
		t.Fatalf("LOG lacks %q:\n%s", want, log)
	}
	db = mustOpen(t, dir, testOptions())
	checkRange(t, db, 0, 150, true)
	db.Close()
}

// Without the WAL the begin edit names, the MANIFEST lost the flush's end
// edit (the WAL is deleted only after it): the open fails naming the table
// and deletes nothing.
func TestUnfinishedFlushWALMissing(t *testing.T) {
	dir, table, begun := interruptedFlush(t)
	if err := os.Remove(walName(dir, begun.walNum)); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir, testOptions(), Config{})
	if !errors.Is(err, ErrCorruption) || !strings.Contains(err.Error(), filepath.Base(table)) {
		t.Fatalf("open: %v; want a Corruption naming %s", err, filepath.Base(table))
	}
	checkExists(t, table, true)
}

// A flush whose writes were all logged, and whose WAL lost the last half
// of them (its tail cut at a record boundary, which point-in-time recovery
// takes as the WAL's end): the table holds writes the WALs no longer
// have, so it cannot be proved obsolete. The open fails naming it and
// deletes nothing.
func TestUnfinishedFlushBeyondWALsKept(t *testing.T) {
	// manifestSeqPast: a later edit recorded a last sequence past what the
	// WAL kept (a flush records the active WAL's, unsynced then), so the
	// MANIFEST's sequence covers the lost writes but no file holds them.
	for _, manifestSeqPast := range []bool{false, true} {
		dir, table, begun := interruptedFlushWith(t, 200)
		if begun.unlogged {
			t.Fatalf("begin edit %+v: want every write logged", begun)
		}
		log := walName(dir, begun.walNum)
		data, offs := walRecords(t, log)
		if len(offs) != 100 {
			t.Fatalf("%s holds %d records, want 100", filepath.Base(log), len(offs))
		}
		if err := os.WriteFile(log, data[:offs[49]], 0o644); err != nil {
			t.Fatal(err)
		}
		if manifestSeqPast {
			rewriteManifest(t, dir, func(e *versionEdit) {
				if e.hasLastSeq {
					e.setLastSeq(max(e.lastSeq, begun.largestSeq))
				}
			})
		}
		_, err := Open(dir, testOptions(), Config{})
		if !errors.Is(err, ErrCorruption) || !strings.Contains(err.Error(), filepath.Base(table)) || !strings.Contains(err.Error(), "replay only to") {
			t.Fatalf("MANIFEST's sequence past the WAL %v: open: %v; want a Corruption naming %s and the WALs' end", manifestSeqPast, err, filepath.Base(table))
		}
		checkExists(t, table, true)
	}
}

// A MANIFEST whose log number is past the flush's WAL recorded the flush's
// end (only that edit moves it there) and lost it: the open fails.
func TestUnfinishedFlushLogNumberPastWAL(t *testing.T) {
	dir, table, begun := interruptedFlush(t)
	rewriteManifest(t, dir, func(e *versionEdit) {
		if len(e.flushBegun) > 0 {
			e.setLogNumber(begun.walNum + 1)
		}
	})
	_, err := Open(dir, testOptions(), Config{})
	if !errors.Is(err, ErrCorruption) || !strings.Contains(err.Error(), filepath.Base(table)) || !strings.Contains(err.Error(), "past that WAL") {
		t.Fatalf("open: %v; want a Corruption naming %s", err, filepath.Base(table))
	}
	checkExists(t, table, true)
}

// A MANIFEST without the begin edit (as one written before flushes
// recorded it) cannot explain the table's unlogged writes: the open fails
// as it always did.
func TestUnfinishedFlushWithoutBeginEdit(t *testing.T) {
	dir, table, _ := interruptedFlush(t)
	rewriteManifest(t, dir, func(e *versionEdit) { e.flushBegun, e.flushEnded = nil, nil })
	_, err := Open(dir, testOptions(), Config{})
	if !errors.Is(err, ErrCorruption) || !strings.Contains(err.Error(), filepath.Base(table)+" is in no version") {
		t.Fatalf("open: %v; want a Corruption naming %s", err, filepath.Base(table))
	}
	checkExists(t, table, true)
}

// A table holding sequences outside the range of the flush said to write
// it is not that flush's output: the open fails.
func TestUnfinishedFlushSequencesOutsideRange(t *testing.T) {
	dir, table, _ := interruptedFlush(t)
	rewriteManifest(t, dir, func(e *versionEdit) {
		for i := range e.flushBegun {
			e.flushBegun[i].largestSeq = 150
		}
	})
	_, err := Open(dir, testOptions(), Config{})
	if !errors.Is(err, ErrCorruption) || !strings.Contains(err.Error(), "outside the") {
		t.Fatalf("open: %v; want a Corruption for sequences outside the flush's", err)
	}
	checkExists(t, table, true)
}

// A MANIFEST of the format before flushes recorded their begin and end
// (tags 1 to 5 only) replays as before.
func TestManifestWithoutFlushFieldsOpens(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, testOptions())
	for i := 0; i < 300; i++ {
		put(t, db, fmt.Sprintf("key%05d", i), fmt.Sprintf("value%05d", i))
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	db.Close()
	var stripped int
	rewriteManifest(t, dir, func(e *versionEdit) {
		stripped += len(e.flushBegun) + len(e.flushEnded)
		e.flushBegun, e.flushEnded = nil, nil
	})
	if stripped == 0 {
		t.Fatal("the MANIFEST recorded no flush")
	}
	db = mustOpen(t, dir, testOptions())
	checkKeys(t, db, nil)
	db.Close()
}

// TestUnloggedFlushStoppedAtEveryStep stops a flush of a memtable holding
// logged and unlogged writes after each of its file-system changes in
// turn, then reopens: the open must succeed with every logged write, and
// the unlogged ones all there (the flush ended) or all gone.
func TestUnloggedFlushStoppedAtEveryStep(t *testing.T) {
	src := t.TempDir()
	o := testOptions()
	db := mustOpen(t, src, o)
	for i := 0; i < 200; i++ {
		put(t, db, fmt.Sprintf("key%05d", i), fmt.Sprintf("value%05d", i))
		if i == 99 {
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// Keys 200-299: the even ones logged, the odd ones not.
	run := func(dir string, limit int64) int64 {
		fs := newStopFS(1 << 40)
		db := mustOpenFS(t, dir, fs, o)
		for i := 200; i < 300; i++ {
			k, v := fmt.Sprintf("key%05d", i), fmt.Sprintf("value%05d", i)
			if i%2 == 0 {
				put(t, db, k, v)
			} else {
				putUnlogged(t, db, k, v)
			}
		}
		// The first logged record started making the next WAL in the
		// background (walnext.go); wait for it, so that its changes fall
		// before the counted window in every run, not in some.
		waitWALAhead(db)
		start := fs.n.Load()
		fs.limit.Store(start + limit)
		db.Flush()
		db.Close()
		return fs.n.Load() - start
	}
	probe := t.TempDir()
	copyDir(t, src, probe)
	steps := run(probe, 1<<40)
	if steps < 6 {
		t.Fatalf("the flush made only %d changes", steps)
	}
	kept := 0
	for limit := int64(0); limit < steps; limit++ {
		dir := t.TempDir()
		copyDir(t, src, dir)
		run(dir, limit)
		db, err := Open(dir, o, Config{})
		if err != nil {
			t.Fatalf("stopped after %d of %d changes: %v", limit, steps, err)
		}
		checkRange(t, db, 0, 200, true)
		_, ended := getString(t, db, "key00201")
		if ended {
			kept++
		}
		for i := 200; i < 300; i++ {
			checkRange(t, db, i, i+1, i%2 == 0 || ended)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if kept == 0 || kept == int(steps) {
		t.Fatalf("the unlogged writes survived %d of %d stops; want some and not all", kept, steps)
	}
	t.Logf("flush stopped after each of its %d changes; reopened each time, unlogged writes kept in %d", steps, kept)
}
