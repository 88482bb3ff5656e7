package lsm

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/lsm/wal"
	"github.com/godbbench/godbbench/sst"
)

// filesOf returns the paths in dir of the given type.
func filesOf(t *testing.T, dir string, typ fileType) []string {
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

func fillDB(t *testing.T, dir string, flush bool) {
	db := mustOpen(t, dir, testOptions())
	for i := 0; i < 300; i++ {
		put(t, db, fmt.Sprintf("key%05d", i), fmt.Sprintf("value%05d", i))
	}
	if flush {
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// filledDir returns a directory holding fillDB's DB and its files of type
// typ, at least one.
func filledDir(t *testing.T, flush bool, typ fileType) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	fillDB(t, dir, flush)
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
	dir, tables := filledDir(t, true, fileTable)
	flipByte(t, tables[0], 40)
	db, err := Open(dir, testOptions(), Config{})
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
}

// TestRandomCorruptionNoPanic flips random bytes in every kind of file and
// requires open and reads to fail cleanly or succeed, never panic.
func TestRandomCorruptionNoPanic(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 30; round++ {
		dir := t.TempDir()
		fillDB(t, dir, round%2 == 0)
		var all []string
		for _, typ := range []fileType{fileWAL, fileManifest, fileTable} {
			all = append(all, filesOf(t, dir, typ)...)
		}
		path := all[rng.Intn(len(all))]
		st, _ := os.Stat(path)
		if st.Size() == 0 {
			continue
		}
		flipByte(t, path, rng.Intn(int(st.Size())))
		db, err := Open(dir, testOptions(), Config{})
		if err != nil {
			continue
		}
		for i := 0; i < 300; i++ {
			if _, err := db.Get([]byte(fmt.Sprintf("key%05d", i)), nil); err != nil {
				break
			}
		}
		if it, err := db.NewIter(nil); err == nil {
			for ok := it.First(); ok; ok = it.Next() {
			}
			it.Close()
		}
		db.Close()
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
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := decodeEdit(data)
		if err != nil {
			return
		}
		// A decoded edit re-encodes to bytes that decode the same way.
		again, err := decodeEdit(e.encode(nil))
		if err != nil || len(again.added) != len(e.added) || len(again.deleted) != len(e.deleted) {
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
