package osfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// opener returns a function that opens path anew each call (a new open
// file description), closed when t ends.
func opener(t *testing.T, path string) func() *os.File {
	return func() *os.File {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
}

func TestFlockConflicts(t *testing.T) {
	open := opener(t, filepath.Join(t.TempDir(), "LOCK"))
	a, b, c := open(), open(), open()
	if err := Flock(a, false); err != nil {
		t.Fatalf("first shared lock: %v", err)
	}
	if err := Flock(b, false); err != nil {
		t.Fatalf("second shared lock: %v", err)
	}
	if err := Flock(c, true); !errors.Is(err, ErrWouldBlock) {
		t.Fatalf("exclusive beside shared: %v, want ErrWouldBlock", err)
	}
	a.Close()
	b.Close()
	if err := Flock(c, true); err != nil {
		t.Fatalf("exclusive after the shared holders closed: %v", err)
	}
	d := open()
	if err := Flock(d, false); !errors.Is(err, ErrWouldBlock) {
		t.Fatalf("shared beside exclusive: %v, want ErrWouldBlock", err)
	}
}

func TestSyncDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SyncDir(dir); err != nil {
		t.Fatal(err)
	}
	if err := SyncDir(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing dir: %v, want ErrNotExist", err)
	}
}

// TestFlockConflictsWithRecordLocks: Flock's lock and a POSIX record lock
// (what RocksDB's and Pebble's LockFile take) on the same file exclude each
// other, in either order, even within one process; a shared Flock admits
// a shared record lock.
func TestFlockConflictsWithRecordLocks(t *testing.T) {
	open := opener(t, filepath.Join(t.TempDir(), "LOCK"))
	posix := func(f *os.File, kind int16) error {
		lk := unix.Flock_t{Type: kind}
		return unix.FcntlFlock(f.Fd(), unix.F_SETLK, &lk)
	}
	a, b := open(), open()
	if err := Flock(a, true); err != nil {
		t.Fatal(err)
	}
	if err := posix(b, unix.F_WRLCK); !errors.Is(err, unix.EAGAIN) && !errors.Is(err, unix.EACCES) {
		t.Fatalf("POSIX write lock beside an exclusive Flock: %v, want EAGAIN or EACCES", err)
	}
	a.Close()
	// The POSIX lock now held by this process, Flock must refuse; then
	// closing c would drop it, so b keeps it to the end.
	if err := posix(b, unix.F_WRLCK); err != nil {
		t.Fatalf("POSIX write lock after Flock's holder closed: %v", err)
	}
	c := open()
	if err := Flock(c, true); !errors.Is(err, ErrWouldBlock) {
		t.Fatalf("exclusive Flock beside a POSIX write lock: %v, want ErrWouldBlock", err)
	}
	if err := posix(b, unix.F_UNLCK); err != nil {
		t.Fatal(err)
	}
	d, e := open(), open()
	if err := Flock(d, false); err != nil {
		t.Fatal(err)
	}
	if err := posix(e, unix.F_RDLCK); err != nil {
		t.Fatalf("POSIX read lock beside a shared Flock: %v", err)
	}
}
