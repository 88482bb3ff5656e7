package lsm

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// dirSyncFS wraps DefaultFS and records the full path of every directory
// sync.
type dirSyncFS struct {
	FS
	mu     sync.Mutex
	synced []string
}

func (f *dirSyncFS) SyncDir(dir string) error {
	f.mu.Lock()
	f.synced = append(f.synced, filepath.Clean(dir))
	f.mu.Unlock()
	return f.FS.SyncDir(dir)
}

// take returns the syncs recorded so far and forgets them.
func (f *dirSyncFS) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.synced
	f.synced = nil
	return s
}

func requireSynced(t *testing.T, what string, synced []string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(synced, w) {
			t.Errorf("%s: %s was not synced (synced: %q)", what, w, synced)
		}
	}
}

func requireNotSynced(t *testing.T, what string, synced []string, unwanted ...string) {
	t.Helper()
	for _, u := range unwanted {
		if slices.Contains(synced, u) {
			t.Errorf("%s: %s was synced (synced: %q)", what, u, synced)
		}
	}
}

// TestOpenSyncsNewDirsIntoParents: an Open that creates the DB directory,
// the WAL directory and their missing ancestors syncs each new directory's
// parent, so a power loss cannot take a DB whose writes were synced away
// with its directory entry; reopening the DB syncs none of them again.
func TestOpenSyncsNewDirsIntoParents(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "a", "b", "db")
	o := testOptions()
	o.WALDir = filepath.Join(base, "w", "wal")
	fs := &dirSyncFS{FS: DefaultFS}
	db := mustOpenFS(t, dir, fs, o)
	put(t, db, "k", "v")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	parents := []string{base, filepath.Join(base, "a"), filepath.Join(base, "a", "b"), filepath.Join(base, "w")}
	requireSynced(t, "creating open", fs.take(), parents...)
	db = mustOpenFS(t, dir, fs, o)
	if got, ok := getString(t, db, "k"); !ok || got != "v" {
		t.Fatalf("k = %q, %v after reopen", got, ok)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	requireNotSynced(t, "reopen", fs.take(), parents...)
}

// TestNewDBInExistingDirSyncsParent: db_bench creates --db before the engine
// opens it, so the DB's directory already exists when Open creates the DB;
// Open still syncs its parent (and the WAL directory's), once, when it
// creates the DB.
func TestNewDBInExistingDirSyncsParent(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "x", "db")
	wal := filepath.Join(base, "y", "wal")
	for _, d := range []string{dir, wal} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	o := testOptions()
	o.WALDir = wal
	fs := &dirSyncFS{FS: DefaultFS}
	db := mustOpenFS(t, dir, fs, o)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	requireSynced(t, "new DB", fs.take(), filepath.Join(base, "x"), filepath.Join(base, "y"))
	db = mustOpenFS(t, dir, fs, o)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	requireNotSynced(t, "reopen", fs.take(), filepath.Join(base, "x"), filepath.Join(base, "y"), base)
}

// TestCheckpointSyncsNewDirsIntoParents: a checkpoint into a directory
// whose parents do not exist yet syncs the checkpoint directory's entry
// and each new ancestor's into their parents.
func TestCheckpointSyncsNewDirsIntoParents(t *testing.T) {
	base := t.TempDir()
	fs := &dirSyncFS{FS: DefaultFS}
	db := mustOpenFS(t, filepath.Join(base, "db"), fs, testOptions())
	defer db.Close()
	put(t, db, "k", "v")
	fs.take()
	cp := filepath.Join(base, "c1", "c2", "cp")
	if err := db.Checkpoint(cp); err != nil {
		t.Fatal(err)
	}
	requireSynced(t, "checkpoint", fs.take(), base, filepath.Join(base, "c1"), filepath.Join(base, "c1", "c2"), cp)
}
