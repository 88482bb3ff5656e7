package pebble

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/godbbench/godbbench/engine"
)

// faultFS fails writes to the files it matches once budget bytes have been
// written to them: the write that crosses the budget writes what fits and
// returns errno, as a full disk does; later writes write nothing. With EIO,
// syncs of a matched file fail too once the budget is spent.
type faultFS struct {
	vfs.FS
	match  func(name string) bool
	errno  syscall.Errno
	budget atomic.Int64
}

func newFaultFS(budget int64, errno syscall.Errno, match func(string) bool) *faultFS {
	f := &faultFS{FS: vfs.Default, match: match, errno: errno}
	f.budget.Store(budget)
	return f
}

func (f *faultFS) wrap(file vfs.File, name string, err error) (vfs.File, error) {
	if err != nil || !f.match(name) {
		return file, err
	}
	return &faultFile{File: file, fs: f, name: name}, nil
}

func (f *faultFS) Create(name string, c vfs.DiskWriteCategory) (vfs.File, error) {
	file, err := f.FS.Create(name, c)
	return f.wrap(file, name, err)
}

func (f *faultFS) ReuseForWrite(oldname, newname string, c vfs.DiskWriteCategory) (vfs.File, error) {
	file, err := f.FS.ReuseForWrite(oldname, newname, c)
	return f.wrap(file, newname, err)
}

type faultFile struct {
	vfs.File
	fs   *faultFS
	name string
}

// take reserves n bytes and returns how many fit.
func (f *faultFile) take(n int) int {
	left := f.fs.budget.Add(-int64(n))
	return int(max(0, min(int64(n), int64(n)+left)))
}

func (f *faultFile) err(op string) error {
	return &os.PathError{Op: op, Path: f.name, Err: f.fs.errno}
}

func (f *faultFile) Write(p []byte) (int, error) {
	fit := f.take(len(p))
	n, err := f.File.Write(p[:fit])
	if err == nil && fit < len(p) {
		err = f.err("write")
	}
	return n, err
}

func (f *faultFile) WriteAt(p []byte, off int64) (int, error) {
	fit := f.take(len(p))
	n, err := f.File.WriteAt(p[:fit], off)
	if err == nil && fit < len(p) {
		err = f.err("write")
	}
	return n, err
}

func (f *faultFile) sync(call func() error) error {
	if f.fs.errno == syscall.EIO && f.fs.budget.Load() < 0 {
		return f.err("sync")
	}
	return call()
}

func (f *faultFile) Sync() error     { return f.sync(f.File.Sync) }
func (f *faultFile) SyncData() error { return f.sync(f.File.SyncData) }

func isWAL(name string) bool      { return strings.HasSuffix(name, ".log") }
func isTable(name string) bool    { return strings.HasSuffix(name, ".sst") }
func isManifest(name string) bool { return strings.Contains(name, "MANIFEST-") }

// Within runs fn and fails the test if it has not returned within d: the
// failures these tests provoke used to hang Pebble forever. It is exported
// for the external tests of diskfull_test.go.
func Within(t *testing.T, what string, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

func faultKey(i int) []byte { return fmt.Appendf(nil, "key%08d", i) }

func faultValue(i int) []byte {
	return bytes.Repeat(fmt.Appendf(nil, "%08d", i), 125) // 1000 bytes
}

// TestWriteFailureEndsWrites fills a database on a file system that fails
// partway, at each kind of file and with ENOSPC and EIO. Each case checks
// that a write returns the failure in RocksDB's words within a bounded time
// (Pebble v2.1.7 panics in the writer on a WAL failure, exits the process
// on a MANIFEST failure, and retries a failed flush forever), that Close
// returns it too, and that a reopen on a healthy file system finds every
// acknowledged synced write with its value.
func TestWriteFailureEndsWrites(t *testing.T) {
	cases := []struct {
		name   string
		budget int64
		errno  syscall.Errno
		match  func(string) bool
		want   string
	}{
		{"wal-enospc", 600 << 10, syscall.ENOSPC, isWAL,
			"IO error: No space left on device: While appending to file: "},
		{"wal-eio", 600 << 10, syscall.EIO, isWAL, "IO error: While appending to file: "},
		{"table-enospc", 100 << 10, syscall.ENOSPC, isTable,
			"IO error: No space left on device: While appending to file: "},
		{"table-eio", 100 << 10, syscall.EIO, isTable, "IO error: While appending to file: "},
		{"manifest-enospc", 400, syscall.ENOSPC, isManifest,
			"IO error: No space left on device: While appending to file: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			o := testOptions()
			o.WriteBufferSize = 256 << 10
			o.MaxWriteBufferNumber = 2 // writers stall behind a failed flush
			fs := newFaultFS(c.budget, c.errno, c.match)
			db, err := open(dir, o, nil, fs, nil)
			if err != nil {
				t.Fatal(err)
			}
			acked := 0
			var writeErr error
			Within(t, "the fill", 60*time.Second, func() {
				for i := range 20000 {
					if writeErr = db.Put(faultKey(i), faultValue(i), &engine.WriteOptions{Sync: true}); writeErr != nil {
						return
					}
					acked++
				}
			})
			if writeErr == nil {
				t.Fatalf("20000 writes succeeded; %d bytes of the budget left", fs.budget.Load())
			}
			if !strings.HasPrefix(writeErr.Error(), c.want) || !errors.Is(writeErr, c.errno) {
				t.Errorf("write error %q (%v), want %q... wrapping %v", writeErr, errors.Unwrap(writeErr), c.want, c.errno)
			}
			if err := db.Put([]byte("later"), []byte("v"), nil); err != writeErr {
				t.Errorf("Put after the failure = %v, want %v", err, writeErr)
			}
			var closeErr error
			Within(t, "Close", 30*time.Second, func() { closeErr = db.Close() })
			if closeErr != writeErr {
				t.Errorf("Close = %v, want %v", closeErr, writeErr)
			}
			t.Logf("%d writes acknowledged before %v", acked, writeErr)

			re, err := Opener{}.Open(dir, o, nil)
			if err != nil {
				t.Fatalf("reopen: %v", err)
			}
			defer re.Close()
			for i := range acked {
				var got []byte
				found, err := re.Get(faultKey(i), func(v []byte) { got = bytes.Clone(v) })
				if err != nil || !found || !bytes.Equal(got, faultValue(i)) {
					t.Fatalf("acknowledged key %d after reopen: found %v, err %v, value ok %v (of %d acknowledged)",
						i, found, err, bytes.Equal(got, faultValue(i)), acked)
				}
			}
			if err := re.Put([]byte("after"), []byte("v"), &engine.WriteOptions{Sync: true}); err != nil {
				t.Errorf("write after reopen: %v", err)
			}
		})
	}
}

// TestWriteFailureUnsynced is the fill without sync: the writes fail and
// Close returns, and the reopened database holds every acknowledged write
// with its value: an unsynced write is acknowledged only once its WAL
// record is in the OS (walsync.go), so the failure cannot drop it.
func TestWriteFailureUnsynced(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	o.WriteBufferSize = 256 << 10
	fs := newFaultFS(1<<20, syscall.ENOSPC, func(string) bool { return true })
	db, err := open(dir, o, nil, fs, nil)
	if err != nil {
		t.Fatal(err)
	}
	acked := 0
	Within(t, "the fill", 60*time.Second, func() {
		for i := range 20000 {
			if err = db.Put(faultKey(i), faultValue(i), nil); err != nil {
				return
			}
			acked++
		}
	})
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("fill ended with %v after %d writes", err, acked)
	}
	Within(t, "Close", 30*time.Second, func() { err = db.Close() })
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Close = %v", err)
	}
	re, err := Opener{}.Open(dir, o, nil)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer re.Close()
	present, gap := 0, false
	for i := range acked {
		var got []byte
		found, err := re.Get(faultKey(i), func(v []byte) { got = bytes.Clone(v) })
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			gap = true
			continue
		}
		if gap {
			t.Fatalf("key %d present after a missing key: not a prefix", i)
		}
		present++
		if !bytes.Equal(got, faultValue(i)) {
			t.Fatalf("key %d has a wrong value", i)
		}
	}
	if present != acked {
		t.Errorf("%d of %d acknowledged unsynced writes present after reopen", present, acked)
	}
}

// TestWriteFailureNoWAL fills a database with the WAL off until a table
// write fails: the fill ends with the failure, Close (which flushes with
// the WAL off) returns it, and the database reopens with a prefix of the
// writes (without a WAL, writes not yet flushed are not durable).
func TestWriteFailureNoWAL(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	o.WriteBufferSize = 256 << 10
	o.DisableWAL = true
	db, err := open(dir, o, nil, newFaultFS(300<<10, syscall.ENOSPC, isTable), nil)
	if err != nil {
		t.Fatal(err)
	}
	Within(t, "the fill", 60*time.Second, func() {
		for i := range 20000 {
			if err = db.Put(faultKey(i), faultValue(i), nil); err != nil {
				return
			}
		}
	})
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("fill ended with %v", err)
	}
	Within(t, "Close", 30*time.Second, func() { err = db.Close() })
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Close = %v", err)
	}
	re := openTest(t, o)(dir)
	defer re.Close()
	gap := false
	for i := range 20000 {
		var got []byte
		found, err := re.Get(faultKey(i), func(v []byte) { got = bytes.Clone(v) })
		if err != nil {
			t.Fatal(err)
		}
		if found && (gap || !bytes.Equal(got, faultValue(i))) {
			t.Fatalf("key %d: present after a gap or with a wrong value", i)
		}
		gap = gap || !found
	}
}

// TestWriteFailureReads checks that reads after a failure return it rather
// than serve a database whose newest files were not stored.
func TestWriteFailureReads(t *testing.T) {
	fs := newFaultFS(0, syscall.ENOSPC, isWAL)
	db, err := open(t.TempDir(), testOptions(), nil, fs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	werr := db.Put([]byte("a"), []byte("b"), &engine.WriteOptions{Sync: true})
	if !errors.Is(werr, syscall.ENOSPC) {
		t.Fatalf("Put = %v", werr)
	}
	if _, err := db.Get([]byte("a"), func([]byte) {}); err != werr {
		t.Errorf("Get = %v", err)
	}
	if _, err := db.NewIter(nil); err != werr {
		t.Errorf("NewIter = %v", err)
	}
	if err := engine.NewRuns(db).MultiGet([][]byte{[]byte("a")}, make([]bool, 1), func(int, []byte) {}); err != werr {
		t.Errorf("MultiGet = %v", err)
	}
	b := db.NewBatch()
	b.Put([]byte("c"), []byte("d"))
	if err := db.Apply(b, nil); err != werr {
		t.Errorf("Apply = %v", err)
	}
	if err := db.Delete([]byte("a"), nil); err != werr {
		t.Errorf("Delete = %v", err)
	}
}

// TestWriteFailureAtOpen reopens a database with WAL contents on a full
// disk: Pebble flushes the replayed WAL at Open, the flush fails, and Open
// returns the failure within a bounded time instead of hanging. Once there
// is space, the database opens with every synced write.
func TestWriteFailureAtOpen(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	o.WriteBufferSize = 4 << 20 // no flush before Close: the data stays in the WAL
	db := openTest(t, o)(dir)
	for i := range 300 {
		if err := db.Put(faultKey(i), faultValue(i), &engine.WriteOptions{Sync: true}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for attempt := range 2 { // a failed open leaves a database that opens
		var err error
		Within(t, "Open on a full disk", 30*time.Second, func() {
			var full *DB
			full, err = open(dir, o, nil, newFaultFS(0, syscall.ENOSPC, func(string) bool { return true }), nil)
			if err == nil {
				full.Close()
			}
		})
		if !errors.Is(err, syscall.ENOSPC) || !strings.HasPrefix(err.Error(), "IO error: No space left on device: While ") {
			t.Fatalf("open %d on a full disk = %v", attempt, err)
		}
	}
	re := openTest(t, o)(dir)
	defer re.Close()
	for i := range 300 {
		if found, err := re.Get(faultKey(i), func([]byte) {}); !found || err != nil {
			t.Fatalf("key %d after the failed opens: found %v, err %v", i, found, err)
		}
	}
}

// TestWriteFailureText checks RocksDB's wording of the failures.
func TestWriteFailureText(t *testing.T) {
	for _, c := range []struct {
		w    writeFailure
		want string
	}{
		{writeFailure{opAppend, "/d/000004.log", &os.PathError{Op: "write", Path: "/d/000004.log", Err: syscall.ENOSPC}},
			"IO error: No space left on device: While appending to file: /d/000004.log: No space left on device"},
		{writeFailure{opSync, "/d/000005.sst", syscall.EIO},
			"IO error: While fsync: /d/000005.sst: Input/output error"},
		{writeFailure{opOpen, "/d/x", errors.New("odd")}, "IO error: While open a file for appending: /d/x: odd"},
	} {
		if got := c.w.Error(); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

// TestFailFSRefusesRecursiveRemoval: the file system the engine hands
// Pebble refuses RemoveAll, leaving the directory and what is in it.
func TestFailFSRefusesRecursiveRemoval(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "sub", "not-ours")
	if err := os.MkdirAll(filepath.Dir(keep), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keep, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := newFailFS(vfs.Default).RemoveAll(filepath.Join(dir, "sub")); err == nil {
		t.Fatal("RemoveAll succeeded")
	}
	if _, err := os.Stat(keep); err != nil {
		t.Fatalf("the file is gone: %v", err)
	}
}

// TestCheckpointAfterWriteFailure: a checkpoint whose files fail to be
// written (a full backup disk) fails with that error. The engine's file
// system reports success for every write after the first failure, so
// Pebble's Checkpoint returned nil over a copy without its MANIFEST.
func TestCheckpointAfterWriteFailure(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(t.TempDir(), "ckpt")
	fs := newFaultFS(0, syscall.ENOSPC, func(name string) bool { return strings.HasPrefix(name, ckpt) })
	db, err := open(dir, testOptions(), nil, fs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := range 100 {
		if err := db.Put(faultKey(i), faultValue(i), &engine.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Checkpoint(ckpt); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Checkpoint onto a full disk: %v, want ENOSPC", err)
	}
}
