package lsm

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// faultFS wraps DefaultFS and fails writes or syncs on demand.
type faultFS struct {
	FS
	failWrite atomic.Bool // Write returns ENOSPC
	failSync  atomic.Bool // Sync returns EIO
}

type faultFile struct {
	WritableFile
	fs *faultFS
}

func (f *faultFS) Create(name string) (WritableFile, error) {
	if f.failWrite.Load() {
		return nil, fmt.Errorf("create %s: %w", name, syscall.ENOSPC)
	}
	w, err := f.FS.Create(name)
	if err != nil {
		return nil, err
	}
	return &faultFile{WritableFile: w, fs: f}, nil
}

func (f *faultFile) Write(p []byte) (int, error) {
	if f.fs.failWrite.Load() {
		return 0, syscall.ENOSPC
	}
	return f.WritableFile.Write(p)
}

func (f *faultFile) Sync() error {
	if f.fs.failSync.Load() {
		return syscall.EIO
	}
	return f.WritableFile.Sync()
}

func openFault(t *testing.T) (*DB, *faultFS) {
	ffs := &faultFS{FS: DefaultFS}
	db, err := Open(t.TempDir(), testOptions(), Config{FS: ffs})
	if err != nil {
		t.Fatal(err)
	}
	return db, ffs
}

func write(db *DB, k string, sync bool) error {
	b := NewBatch()
	b.Put([]byte(k), []byte("v"))
	return db.Write(b, WriteOptions{Sync: sync})
}

func TestWALNoSpaceStopsWrites(t *testing.T) {
	db, ffs := openFault(t)
	defer db.Close()
	if err := write(db, "a", false); err != nil {
		t.Fatal(err)
	}
	ffs.failWrite.Store(true)
	err := write(db, "b", false)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("write on a full disk: %v", err)
	}
	ffs.failWrite.Store(false)
	err = write(db, "c", false)
	if err == nil || !strings.Contains(err.Error(), "writes stopped") || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("write after the failure: %v", err)
	}
	// Reads still work.
	if _, ok := getString(t, db, "a"); !ok {
		t.Fatal("lost a")
	}
	if m, _ := db.Metrics(); !m.BackgroundError {
		t.Fatal("Metrics.BackgroundError not set")
	}
}

// TestFailedOverlappedWALWrite fails the WAL write of a group large enough
// to be written while it inserts (walOverlapBytes): the write must fail,
// none of its keys may become visible although they reached the memtable,
// a Flush must not carry them into a table, and a reopen finds exactly what
// the WAL holds.
func TestFailedOverlappedWALWrite(t *testing.T) {
	ffs := &faultFS{FS: DefaultFS}
	dir := t.TempDir()
	db := mustOpenFS(t, dir, ffs, testOptions())
	if err := write(db, "before", false); err != nil {
		t.Fatal(err)
	}
	big := NewBatch()
	for i := 0; big.Size() < 2*walOverlapBytes; i++ {
		big.Put(fmt.Appendf(nil, "big%05d", i), make([]byte, 100))
	}
	ffs.failWrite.Store(true)
	if err := db.Write(big, WriteOptions{}); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("large write on a full disk: %v", err)
	}
	ffs.failWrite.Store(false)
	for _, k := range []string{"big00000", "big00100"} {
		if _, ok := getString(t, db, k); ok {
			t.Fatalf("%s of the failed write is visible", k)
		}
	}
	if err := db.Flush(); err == nil {
		t.Fatal("Flush accepted after the failed WAL write")
	}
	db.Close()
	db = mustOpen(t, dir, testOptions())
	defer db.Close()
	if _, ok := getString(t, db, "before"); !ok {
		t.Fatal("lost the write before the failure")
	}
	if _, ok := getString(t, db, "big00000"); ok {
		t.Fatal("the failed write came back after a reopen")
	}
}

func TestFailedSyncStopsWrites(t *testing.T) {
	db, ffs := openFault(t)
	defer db.Close()
	ffs.failSync.Store(true)
	if err := write(db, "a", true); !errors.Is(err, syscall.EIO) {
		t.Fatalf("sync write with failing fsync: %v", err)
	}
	ffs.failSync.Store(false)
	if err := write(db, "b", false); err == nil {
		t.Fatal("write accepted after a failed fsync")
	}
}

func TestFlushNoSpaceStopsWrites(t *testing.T) {
	db, ffs := openFault(t)
	defer db.Close()
	if err := write(db, "a", false); err != nil {
		t.Fatal(err)
	}
	ffs.failWrite.Store(true)
	err := db.Flush()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("flush on a full disk: %v", err)
	}
	ffs.failWrite.Store(false)
	if err := write(db, "b", false); err == nil || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("write after a failed flush: %v", err)
	}
}

func TestLockedByAnotherOpen(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, testOptions())
	defer db.Close()
	_, err := Open(dir, testOptions(), Config{})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second open: %v", err)
	}
}
