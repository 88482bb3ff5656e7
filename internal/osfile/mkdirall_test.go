package osfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// syncRecorder is the OS DirMaker with its directory syncs recorded and,
// when failOn names a directory, a sync of it failing with EIO.
type syncRecorder struct {
	OS
	synced []string
	failOn string
}

func (r *syncRecorder) SyncDir(dir string) error {
	r.synced = append(r.synced, dir)
	if dir == r.failOn {
		return syscall.EIO
	}
	return r.OS.SyncDir(dir)
}

// TestMkdirAllDurableSyncsEachNewParent: creating base/a/b/c syncs base,
// base/a and base/a/b (the parents of the three new directories) and
// nothing else; a second call, with everything there, syncs nothing.
func TestMkdirAllDurableSyncsEachNewParent(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "a", "b", "c")
	r := &syncRecorder{}
	if err := MkdirAllDurable(r, dir); err != nil {
		t.Fatal(err)
	}
	wantSynced := []string{filepath.Join(base, "a", "b"), filepath.Join(base, "a"), base}
	if !slices.Equal(r.synced, wantSynced) {
		t.Fatalf("synced %q, want %q", r.synced, wantSynced)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("%s not a directory after the call: %v", dir, err)
	}
	r.synced = nil
	if err := MkdirAllDurable(r, dir); err != nil || r.synced != nil {
		t.Fatalf("existing dir: synced %q, err %v; want nothing", r.synced, err)
	}
}

// TestMkdirAllDurableSyncFailure: a failed sync of a new directory's parent
// is the call's error, naming the directory.
func TestMkdirAllDurableSyncFailure(t *testing.T) {
	base := t.TempDir()
	r := &syncRecorder{failOn: base}
	err := MkdirAllDurable(r, filepath.Join(base, "a", "b"))
	if !errors.Is(err, syscall.EIO) {
		t.Fatalf("err %v, want EIO", err)
	}
}

// TestMkdirAllDurableUnderAFile: a path below a regular file fails with
// MkdirAll's error and syncs nothing.
func TestMkdirAllDurableUnderAFile(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := &syncRecorder{}
	if err := MkdirAllDurable(r, filepath.Join(file, "d")); err == nil {
		t.Fatal("created a directory below a regular file")
	}
	if r.synced != nil {
		t.Fatalf("synced %q after a failed create", r.synced)
	}
}
