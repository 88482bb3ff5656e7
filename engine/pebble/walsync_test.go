package pebble

import (
	"bytes"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/godbbench/godbbench/engine"
)

// syncCountFS counts the syncs of the files written through it, WALs apart
// from the rest.
type syncCountFS struct {
	vfs.FS
	walSyncs, otherSyncs atomic.Int64
}

func (c *syncCountFS) wrap(f vfs.File, name string, err error) (vfs.File, error) {
	if err != nil {
		return f, err
	}
	n := &c.otherSyncs
	if isWAL(name) {
		n = &c.walSyncs
	}
	return &syncCountFile{File: f, n: n}, nil
}

func (c *syncCountFS) Create(name string, cat vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := c.FS.Create(name, cat)
	return c.wrap(f, name, err)
}

func (c *syncCountFS) ReuseForWrite(oldname, newname string, cat vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := c.FS.ReuseForWrite(oldname, newname, cat)
	return c.wrap(f, newname, err)
}

type syncCountFile struct {
	vfs.File
	n *atomic.Int64
}

func (f *syncCountFile) Sync() error     { f.n.Add(1); return f.File.Sync() }
func (f *syncCountFile) SyncData() error { f.n.Add(1); return f.File.SyncData() }

// walBytes is everything the OS holds in dir's WAL files, read through
// descriptors of its own, as a process started after a kill would.
func walBytes(t *testing.T, dir string) []byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil {
		t.Fatal(err)
	}
	var all []byte
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

// TestUnsyncedWriteReachesOS checks the promise of walsync.go: when an
// unsynced Put, Delete or Apply returns, its WAL record is in the OS (a
// process kill cannot lose it), and no WAL fsync was paid for it; a synced
// write syncs the WAL, and the other files' syncs are untouched.
func TestUnsyncedWriteReachesOS(t *testing.T) {
	dir := t.TempDir()
	fs := &syncCountFS{FS: vfs.Default}
	db, err := open(dir, testOptions(), nil, fs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	walSyncsAtOpen := fs.walSyncs.Load()

	noSync := &engine.WriteOptions{}
	b := db.NewBatch()
	defer b.Close()
	for i := range 200 {
		key := faultKey(i)
		var err error
		switch i % 3 {
		case 0:
			err = db.Put(key, []byte("unsynced-value"), noSync)
		case 1:
			err = db.Delete(key, nil) // nil options: db_bench's default, no sync
		default:
			b.Reset()
			b.Put(key, []byte("unsynced-batch"))
			err = db.Apply(b, noSync)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(walBytes(t, dir), key) {
			t.Fatalf("write %d (%s) acknowledged, but its WAL record is not in the file", i, key)
		}
	}
	if n := fs.walSyncs.Load() - walSyncsAtOpen; n != 0 {
		t.Errorf("200 unsynced writes synced the WAL %d times, want 0", n)
	}

	if err := db.Put([]byte("synced"), []byte("v"), &engine.WriteOptions{Sync: true}); err != nil {
		t.Fatal(err)
	}
	if fs.walSyncs.Load() == walSyncsAtOpen {
		t.Error("a synced write did not sync the WAL")
	}
	if fs.otherSyncs.Load() == 0 {
		t.Error("open synced no MANIFEST or marker file")
	}
	other := fs.otherSyncs.Load()
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if fs.otherSyncs.Load() == other {
		t.Error("a flush synced no table or MANIFEST")
	}
}
