package lsm

import (
	"errors"
	"sync/atomic"
	"testing"
)

var errStopped = errors.New("process stopped")

// stopFS lets the first limit file-system changes (create, write, sync,
// rename, remove, directory sync) through and fails every one after: what
// a process killed at that point leaves on disk.
type stopFS struct {
	FS
	limit int64
	n     atomic.Int64
}

type stopFile struct {
	WritableFile
	fs *stopFS
}

func (s *stopFS) step() error {
	if s.n.Add(1) > s.limit {
		return errStopped
	}
	return nil
}

func (s *stopFS) Create(name string) (WritableFile, error) {
	if err := s.step(); err != nil {
		return nil, err
	}
	w, err := s.FS.Create(name)
	if err != nil {
		return nil, err
	}
	return &stopFile{WritableFile: w, fs: s}, nil
}

func (f *stopFile) Write(p []byte) (int, error) {
	if err := f.fs.step(); err != nil {
		return 0, err
	}
	return f.WritableFile.Write(p)
}

func (f *stopFile) Sync() error {
	if err := f.fs.step(); err != nil {
		return err
	}
	return f.WritableFile.Sync()
}

func (s *stopFS) Rename(o, n string) error {
	if err := s.step(); err != nil {
		return err
	}
	return s.FS.Rename(o, n)
}

func (s *stopFS) Remove(name string) error {
	if err := s.step(); err != nil {
		return err
	}
	return s.FS.Remove(name)
}

func (s *stopFS) SyncDir(dir string) error {
	if err := s.step(); err != nil {
		return err
	}
	return s.FS.SyncDir(dir)
}

// TestRecoveryStoppedAtEveryStep stops a recovery of three WALs after each
// of its file-system changes in turn, then reopens: every write must be
// there, whatever step the first recovery reached.
func TestRecoveryStoppedAtEveryStep(t *testing.T) {
	src, logs := filledDir(t, false, fileWAL)
	splitWAL(t, logs[0], 100)
	count := &stopFS{FS: DefaultFS, limit: 1 << 40}
	db := mustOpenFS(t, t.TempDir(), count, testOptions()) // warm-up: a new DB
	db.Close()
	probe := t.TempDir()
	copyDir(t, src, probe)
	count.n.Store(0)
	db = mustOpenFS(t, probe, count, testOptions())
	steps := count.n.Load()
	db.Close()
	if steps < 10 {
		t.Fatalf("recovery made only %d changes", steps)
	}
	for limit := int64(0); limit < steps; limit++ {
		dir := t.TempDir()
		copyDir(t, src, dir)
		if db, err := Open(dir, testOptions(), Config{FS: &stopFS{FS: DefaultFS, limit: limit}}); err == nil {
			db.Close() // its file-system changes fail from here on
		}
		db := mustOpen(t, dir, testOptions())
		checkKeys(t, db, nil)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("recovery stopped after each of its %d changes, then reopened with every write", steps)
}
