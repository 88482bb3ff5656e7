package osfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFlockConflicts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "LOCK")
	open := func() *os.File {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
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
