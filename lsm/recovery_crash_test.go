package lsm

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/godbbench/godbbench/options"
)

var errStopped = errors.New("process stopped")

// stopFS lets the first limit file-system changes (create, write, sync,
// rename, remove, directory sync) through and fails every one after: what
// a process killed at that point leaves on disk.
type stopFS struct {
	FS
	limit atomic.Int64
	n     atomic.Int64
}

func newStopFS(limit int64) *stopFS {
	s := &stopFS{FS: DefaultFS}
	s.limit.Store(limit)
	return s
}

type stopFile struct {
	WritableFile
	fs *stopFS
}

func (s *stopFS) step() error {
	if s.n.Add(1) > s.limit.Load() {
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
	recoveryStoppedAtEveryStep(t, src, testOptions())
}

// recoveryStoppedAtEveryStep is TestRecoveryStoppedAtEveryStep over the
// DB in src, opened under o.
func recoveryStoppedAtEveryStep(t *testing.T, src string, o *options.Options) {
	count := newStopFS(1 << 40)
	db := mustOpenFS(t, t.TempDir(), count, o) // warm-up: a new DB
	db.Close()
	probe := t.TempDir()
	copyDir(t, src, probe)
	count.n.Store(0)
	db = mustOpenFS(t, probe, count, o)
	steps := count.n.Load()
	db.Close()
	if steps < 10 {
		t.Fatalf("recovery made only %d changes", steps)
	}
	for limit := int64(0); limit < steps; limit++ {
		dir := t.TempDir()
		copyDir(t, src, dir)
		if db, err := Open(dir, o, Config{FS: newStopFS(limit)}); err == nil {
			db.Close() // its file-system changes fail from here on
		}
		db := mustOpen(t, dir, o)
		checkKeys(t, db, nil)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("recovery stopped after each of its %d changes, then reopened with every write", steps)
}

// TestFlushStoppedAtEveryStep stops a flush and a manual compaction after
// each of their file-system changes in turn, then reopens: every write must
// be there.
func TestFlushStoppedAtEveryStep(t *testing.T) {
	src := t.TempDir()
	o := testOptions()
	o.Level0FileNumCompactionTrigger = 10 // compact only when asked
	db := mustOpen(t, src, o)
	for i := 0; i < 300; i++ {
		put(t, db, fmt.Sprintf("key%05d", i), fmt.Sprintf("value%05d", i))
		if i == 149 {
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	run := func(dir string, limit int64) int64 {
		fs := newStopFS(1 << 40)
		db := mustOpenFS(t, dir, fs, o)
		start := fs.n.Load()
		fs.limit.Store(start + limit)
		db.Flush()
		db.Compact(nil, nil, -1)
		db.Close()
		return fs.n.Load() - start
	}
	probe := t.TempDir()
	copyDir(t, src, probe)
	steps := run(probe, 1<<40)
	if n := len(filesOf(t, probe, fileTable)); n != 1 {
		t.Fatalf("%d tables after the compaction, want 1", n)
	}
	if steps < 8 {
		t.Fatalf("flush and compaction made only %d changes", steps)
	}
	for limit := int64(0); limit < steps; limit++ {
		dir := t.TempDir()
		copyDir(t, src, dir)
		run(dir, limit)
		db := mustOpen(t, dir, o)
		checkKeys(t, db, nil)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("flush and compaction stopped after each of their %d changes, then reopened with every write", steps)
}
