package lsm

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/lsm/wal"
	"github.com/godbbench/godbbench/sst"
)

// filesOf returns the paths in dir of the given type.
func filesOf(t testing.TB, dir string, typ fileType) []string {
	names, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range names {
		if ft, _ := parseFileName(n.Name()); ft == typ {
			out = append(out, filepath.Join(dir, n.Name()))
		}
	}
	return out
}

func flipByte(t *testing.T, path string, off int) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if off < 0 {
		off += len(data)
	}
	data[off] ^= 0x55
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func fillDB(t *testing.T, dir string, flush bool) { fillDBAs(t, dir, flush, formatCases[0]) }

// fillDBAs is fillDB writing tables in fc's format.
func fillDBAs(t *testing.T, dir string, flush bool, fc formatCase) {
	db := mustOpen(t, dir, fc.with(testOptions()))
	for i := 0; i < 300; i++ {
		put(t, db, fmt.Sprintf("key%05d", i), fmt.Sprintf("value%05d", i))
	}
	if flush {
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
		fc.settle(t, db)
		fc.requireFormat(t, db)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// filledDir returns a directory holding fillDB's DB and its files of type
// typ, at least one.
func filledDir(t *testing.T, flush bool, typ fileType) (string, []string) {
	t.Helper()
	return filledDirAs(t, flush, typ, formatCases[0])
}

// filledDirAs is filledDir with tables in fc's format.
func filledDirAs(t *testing.T, flush bool, typ fileType, fc formatCase) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	fillDBAs(t, dir, flush, fc)
	files := filesOf(t, dir, typ)
	if len(files) == 0 {
		t.Fatalf("no file of type %d", typ)
	}
	return dir, files
}

func TestCorruptWAL(t *testing.T) {
	dir, logs := filledDir(t, false, fileWAL)
	flipByte(t, logs[len(logs)-1], 100)
	_, err := Open(dir, testOptions(), Config{})
	if !errors.Is(err, wal.ErrCorruption) || !strings.Contains(err.Error(), ".log") {
		t.Fatalf("open with a corrupt WAL: %v", err)
	}
}

func TestCorruptManifest(t *testing.T) {
	dir := t.TempDir()
	fillDB(t, dir, true)
	m := filesOf(t, dir, fileManifest)
	if len(m) != 1 {
		t.Fatalf("manifests: %v", m)
	}
	flipByte(t, m[0], 10)
	_, err := Open(dir, testOptions(), Config{})
	if !errors.Is(err, ErrCorruptManifest) || !errors.Is(err, ErrCorruption) || !strings.Contains(err.Error(), filepath.Base(m[0])) {
		t.Fatalf("open with a corrupt MANIFEST: %v", err)
	}
	// CURRENT naming a missing MANIFEST is an error too, not a new DB.
	os.WriteFile(filepath.Join(dir, currentName), []byte("MANIFEST-999999\n"), 0o644)
	if _, err := Open(dir, testOptions(), Config{}); err == nil {
		t.Fatal("open with a dangling CURRENT succeeded")
	}
}

func TestCorruptTable(t *testing.T) {
	for _, fc := range formatCases {
		t.Run(fc.name, func(t *testing.T) {
			dir, tables := filledDirAs(t, true, fileTable, fc)
			flipByte(t, tables[0], 40)
			db, err := Open(dir, fc.with(testOptions()), Config{})
			if err != nil {
				if !errors.Is(err, sst.ErrCorruption) {
					t.Fatalf("open: %v", err)
				}
				return
			}
			defer db.Close()
			var readErr error
			for i := 0; i < 300 && readErr == nil; i++ {
				_, readErr = db.Get([]byte(fmt.Sprintf("key%05d", i)), nil)
			}
			if !errors.Is(readErr, sst.ErrCorruption) {
				t.Fatalf("reading a corrupt table: %v", readErr)
			}
		})
	}
}

// writeOp is one write of fillWithHistory: a put of value, or a deletion.
type writeOp struct {
	key, value string
	deleted    bool
}

// fillWithHistory writes 300 keys, rewrites every fifth and deletes every
// seventh, flushing after each phase if flush is set (so that the newer
// versions and the tombstones sit in other tables than the first values),
// and returns the writes in order. Tables are in fc's format (settled
// after each flush).
func fillWithHistory(t *testing.T, dir string, flush bool, fc formatCase) []writeOp {
	db := mustOpen(t, dir, fc.with(testOptions()))
	var ops []writeOp
	write := func(op writeOp) {
		if op.deleted {
			del(t, db, op.key)
		} else {
			put(t, db, op.key, op.value)
		}
		ops = append(ops, op)
	}
	phases := []struct {
		step   int
		value  string
		delete bool
	}{{1, "value%05d", false}, {5, "rewritten%05d", false}, {7, "", true}}
	for _, p := range phases {
		for i := 0; i < 300; i += p.step {
			op := writeOp{key: fmt.Sprintf("key%05d", i), deleted: p.delete}
			if !p.delete {
				op.value = fmt.Sprintf(p.value, i)
			}
			write(op)
		}
		if flush {
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
			fc.settle(t, db)
		}
	}
	if flush {
		fc.requireFormat(t, db)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return ops
}

// readBack is what reads of a damaged DB returned without an error: the
// Gets (absent keys with found false) and the scan's entries, in order;
// scanDone is set when the scan reached the end without an error.
type readBack struct {
	gets     map[string]*string
	scan     []writeOp
	scanDone bool
}

func readAll(db *DB) readBack {
	rb := readBack{gets: map[string]*string{}}
	for i := 0; i < 300; i++ {
		key := fmt.Sprintf("key%05d", i)
		var value *string
		found, err := db.Get([]byte(key), func(v []byte) { s := string(v); value = &s })
		if err != nil {
			continue // an error is an allowed answer
		}
		if !found {
			value = nil
		}
		rb.gets[key] = value
	}
	it, err := db.NewIter(nil)
	if err != nil {
		return rb
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.Value()
		if err != nil {
			return rb
		}
		rb.scan = append(rb.scan, writeOp{key: string(it.Key()), value: string(v)})
	}
	rb.scanDone = it.Error() == nil
	return rb
}

// mismatch describes how rb disagrees with the DB holding state, or
// returns "". The scan must list state's keys in order, all of them
// unless it stopped at an error.
func (rb *readBack) mismatch(state map[string]string) string {
	for key, got := range rb.gets {
		want, live := state[key]
		switch {
		case got == nil && live:
			return fmt.Sprintf("Get(%s) found nothing, want %q", key, want)
		case got != nil && !live:
			return fmt.Sprintf("Get(%s) = %q, want nothing", key, *got)
		case got != nil && *got != want:
			return fmt.Sprintf("Get(%s) = %q, want %q", key, *got, want)
		}
	}
	live := make([]string, 0, len(state))
	for k := range state {
		live = append(live, k)
	}
	sort.Strings(live)
	if len(rb.scan) > len(live) || rb.scanDone && len(rb.scan) != len(live) {
		return fmt.Sprintf("scan returned %d keys (complete: %t), the DB holds %d", len(rb.scan), rb.scanDone, len(live))
	}
	for i, e := range rb.scan {
		if e.key != live[i] || e.value != state[live[i]] {
			return fmt.Sprintf("scan entry %d is %s=%q, want %s=%q", i, e.key, e.value, live[i], state[live[i]])
		}
	}
	return ""
}

// TestRandomCorruptionNoPanic flips a random byte of a random WAL, MANIFEST
// or table and requires open and reads to fail cleanly or to read right:
// never a panic, never a wrong value, never a deleted key or a lost one.
// Reads must agree with every write, except that damage in a WAL may lose
// a suffix of the writes (point-in-time recovery): reads must then agree
// with the writes up to some point.
func TestRandomCorruptionNoPanic(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	opened := 0
	for round := 0; round < 40; round++ {
		dir := t.TempDir()
		// Rounds alternate flushing (tables) or not (WALs only), and the
		// table format every other pair of rounds.
		fc := formatCases[round/2%len(formatCases)]
		ops := fillWithHistory(t, dir, round%2 == 0, fc)
		var all []string
		for _, typ := range []fileType{fileWAL, fileManifest, fileTable} {
			all = append(all, filesOf(t, dir, typ)...)
		}
		path := all[rng.Intn(len(all))]
		st, _ := os.Stat(path)
		if st.Size() == 0 {
			continue
		}
		off := rng.Intn(int(st.Size()))
		flipByte(t, path, off)
		db, err := Open(dir, fc.with(testOptions()), Config{})
		if err != nil {
			continue
		}
		opened++
		rb := readAll(db)
		db.Close()
		typ, _ := parseFileName(filepath.Base(path))
		state := map[string]string{}
		first := len(ops) // the shortest prefix of the writes allowed
		if typ == fileWAL {
			first = 0
		}
		why := ""
		for n := 0; n <= len(ops); n++ {
			if n > 0 {
				if op := ops[n-1]; op.deleted {
					delete(state, op.key)
				} else {
					state[op.key] = op.value
				}
			}
			if n < first {
				continue
			}
			if why = rb.mismatch(state); why == "" {
				break
			}
		}
		if why != "" {
			t.Fatalf("round %d (%s tables), byte %d of %s flipped: %s", round, fc.name, off, filepath.Base(path), why)
		}
	}
	if opened == 0 {
		t.Fatal("no damaged DB opened: the reads were never checked")
	}
}

func FuzzManifestDecode(f *testing.F) {
	e := &versionEdit{}
	e.setLogNumber(3)
	e.setNextFileNum(9)
	e.setLastSeq(100)
	e.deleted = append(e.deleted, deletedFileEntry{level: 1, fileNum: 4})
	e.added = append(e.added, newFileEntry{level: 2, meta: &fileMeta{num: 5, size: 1000, smallest: []byte("a"), largest: []byte("z"), smallestSeq: 1, largestSeq: 50}})
	f.Add(e.encode(nil))
	flush := &versionEdit{flushEnded: []uint64{5}}
	flush.flushBegun = append(flush.flushBegun, pendingFlush{tableNum: 12, walNum: 10, smallestSeq: 101, largestSeq: 300, unlogged: true})
	f.Add(flush.encode(nil))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := decodeEdit(data)
		if err != nil {
			return
		}
		// A decoded edit re-encodes to bytes that decode the same way.
		again, err := decodeEdit(e.encode(nil))
		if err != nil || len(again.added) != len(e.added) || len(again.deleted) != len(e.deleted) ||
			!slices.Equal(again.flushBegun, e.flushBegun) || !slices.Equal(again.flushEnded, e.flushEnded) {
			t.Fatalf("re-decode: %v", err)
		}
		_, _ = (*version)(nil).apply(e, 7)
	})
}

func TestEditRoundTrip(t *testing.T) {
	e := &versionEdit{}
	e.setLogNumber(3)
	e.setNextFileNum(9)
	e.setLastSeq(100)
	e.deleted = append(e.deleted, deletedFileEntry{level: 1, fileNum: 4})
	e.added = append(e.added, newFileEntry{level: 2, meta: &fileMeta{num: 5, size: 1000, smallest: []byte("a"), largest: []byte("z"), smallestSeq: 1, largestSeq: 50}})
	d, err := decodeEdit(e.encode(nil))
	if err != nil {
		t.Fatal(err)
	}
	if d.logNumber != 3 || d.nextFileNum != 9 || d.lastSeq != 100 || d.deleted[0] != e.deleted[0] {
		t.Fatalf("decoded %+v", d)
	}
	m := d.added[0].meta
	if d.added[0].level != 2 || m.num != 5 || m.size != 1000 || string(m.smallest) != "a" || string(m.largest) != "z" || m.smallestSeq != 1 || m.largestSeq != 50 {
		t.Fatalf("decoded file %+v", m)
	}
	if _, err := decodeEdit([]byte{99}); !errors.Is(err, ErrCorruptManifest) {
		t.Fatalf("unknown tag: %v", err)
	}
}
