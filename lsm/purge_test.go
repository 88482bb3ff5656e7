package lsm

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// heldRemoveFS holds every table removal while held is set, until let is
// closed, and records the tables removed.
type heldRemoveFS struct {
	FS
	held    chan struct{} // closed: removals wait for let
	let     chan struct{}
	mu      sync.Mutex
	removed []string
	waiting chan string // a held removal's name, as it starts waiting
}

func newHeldRemoveFS() *heldRemoveFS {
	return &heldRemoveFS{FS: DefaultFS, held: make(chan struct{}), let: make(chan struct{}), waiting: make(chan string, 64)}
}

func (f *heldRemoveFS) Remove(name string) error {
	if t, _ := parseFileName(filepath.Base(name)); t == fileTable {
		select {
		case <-f.held:
			f.waiting <- name
			<-f.let
		default:
		}
		f.mu.Lock()
		f.removed = append(f.removed, name)
		f.mu.Unlock()
	}
	return f.FS.Remove(name)
}

// obsoleteUnderIterator opens a DB on fs with one table, opens an
// iterator on it and compacts the table away, so that the iterator holds
// the last reference on the version listing the old table; it returns the
// DB, the iterator and the old table's name.
func obsoleteUnderIterator(t *testing.T, dir string, fs FS) (*DB, *Iterator, string) {
	t.Helper()
	db := mustOpenFS(t, dir, fs, testOptions())
	put(t, db, "a", "1")
	put(t, db, "b", "2")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	old := filesOf(t, dir, fileTable)
	if len(old) != 1 {
		t.Fatalf("tables after one flush: %v", old)
	}
	it, err := db.NewIter(&IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, db, "a", "3") // overlaps the table: a merge, not a move
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old[0]); err != nil {
		t.Fatalf("table %s, held by an open iterator, is gone: %v", old[0], err)
	}
	return db, it, old[0]
}

// TestReadReleaseOffReadPath: the read that drops the last reference on a
// read state does not delete its obsolete tables itself: the purger does,
// and WaitForCompactions waits for it.
func TestReadReleaseOffReadPath(t *testing.T) {
	dir := t.TempDir()
	fs := newHeldRemoveFS()
	db, it, old := obsoleteUnderIterator(t, dir, fs)
	defer db.Close()
	close(fs.held)
	closed := make(chan error, 1)
	go func() { closed <- it.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Iterator.Close waited for the obsolete table's removal")
	}
	select {
	case name := <-fs.waiting:
		if name != old {
			t.Fatalf("removal of %s held, want %s", name, old)
		}
	case <-time.After(10 * time.Second):
		fs.mu.Lock()
		t.Fatalf("no removal of %s after the iterator closed; removed %v, tables %v", old, fs.removed, filesOf(t, dir, fileTable))
	}
	waited := make(chan error, 1)
	go func() { waited <- db.WaitForCompactions() }()
	select {
	case err := <-waited:
		t.Fatalf("WaitForCompactions returned (%v) with a removal pending", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(fs.let)
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("obsolete table %s after WaitForCompactions: %v", old, err)
	}
}

// TestCloseDrainsPurge: Close returns only after the purger has released
// what reads handed it, so no table is deleted once the DB is closed.
func TestCloseDrainsPurge(t *testing.T) {
	dir := t.TempDir()
	fs := newHeldRemoveFS()
	db, it, old := obsoleteUnderIterator(t, dir, fs)
	close(fs.held)
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	<-fs.waiting
	closed := make(chan error, 1)
	go func() { closed <- db.Close() }()
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) with a removal pending", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(fs.let)
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	fs.mu.Lock()
	removed := fs.removed
	fs.mu.Unlock()
	if !slices.Contains(removed, old) {
		t.Fatalf("tables removed by the time Close returned: %v, not %s", removed, old)
	}
}

// TestReleaseAfterCloseKeepsFiles: a version whose last reference an
// iterator drops after Close lists a table no newer version does; the
// release closes its reader but leaves the file, as the DB no longer holds
// the directory lock (another DB may own the directory and its numbers by
// then). The next Open proves the table obsolete and deletes it.
func TestReleaseAfterCloseKeepsFiles(t *testing.T) {
	dir := t.TempDir()
	db, it, old := obsoleteUnderIterator(t, dir, DefaultFS)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	checkExists(t, old, true)
	db = mustOpen(t, dir, testOptions())
	defer db.Close()
	checkExists(t, old, false)
	if v, ok := getString(t, db, "a"); !ok || v != "3" {
		t.Fatalf("a = %q, %v after reopen; want 3", v, ok)
	}
}
