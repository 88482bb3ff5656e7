package lsm

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncGateFS wraps DefaultFS: it counts the bytes written to and synced
// of each file (by base name) and holds the Sync of the file named gated
// until release is closed. It notes a violation when another WAL is synced
// while gated has bytes not yet synced.
type syncGateFS struct {
	FS
	gated   string
	release chan struct{}

	mu        sync.Mutex
	written   map[string]int64
	synced    map[string]int64
	violation string
}

type syncGateFile struct {
	WritableFile
	fs   *syncGateFS
	name string
}

func newSyncGateFS() *syncGateFS {
	return &syncGateFS{FS: DefaultFS, release: make(chan struct{}), written: map[string]int64{}, synced: map[string]int64{}}
}

func (g *syncGateFS) Create(name string) (WritableFile, error) {
	w, err := g.FS.Create(name)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	g.written[filepath.Base(name)], g.synced[filepath.Base(name)] = 0, 0
	g.mu.Unlock()
	return &syncGateFile{WritableFile: w, fs: g, name: filepath.Base(name)}, nil
}

func (f *syncGateFile) Write(p []byte) (int, error) {
	n, err := f.WritableFile.Write(p)
	f.fs.mu.Lock()
	f.fs.written[f.name] += int64(n)
	f.fs.mu.Unlock()
	return n, err
}

func (f *syncGateFile) Sync() error {
	g := f.fs
	if f.name == g.gated {
		<-g.release
	} else if strings.HasSuffix(f.name, ".log") {
		g.mu.Lock()
		if g.gated != "" && g.synced[g.gated] < g.written[g.gated] && g.violation == "" {
			g.violation = fmt.Sprintf("%s synced while %s had %d bytes unsynced", f.name, g.gated, g.written[g.gated]-g.synced[g.gated])
		}
		g.mu.Unlock()
	}
	g.mu.Lock()
	size := g.written[f.name]
	g.mu.Unlock()
	err := f.WritableFile.Sync()
	if err == nil {
		g.mu.Lock()
		g.synced[f.name] = max(g.synced[f.name], size)
		g.mu.Unlock()
	}
	return err
}

// powerLossCopy copies the files of src into a new temporary directory as
// a machine crash would leave them, each WAL cut to the bytes synced of
// it, and returns that directory.
func (g *syncGateFS) powerLossCopy(t *testing.T, src string) string {
	t.Helper()
	// The DB runs on while the files are copied: a flush that finishes
	// meanwhile deletes the WAL it made obsolete, and a copy that listed
	// it fails. Such a copy is retried into a fresh directory: the crash it
	// stands for is then a moment later, still after every acknowledged
	// write. Nothing is deleted here.
	dst := t.TempDir()
	for {
		err := tryCopyDir(src, dst)
		if err == nil {
			break
		}
		if !os.IsNotExist(err) {
			t.Fatal(err)
		}
		dst = t.TempDir()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for name, n := range g.synced {
		if !strings.HasSuffix(name, ".log") {
			continue
		}
		if err := os.Truncate(filepath.Join(dst, name), n); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	return dst
}

// TestRetiredWALWindow stops the sync of a WAL a switch retired and
// crashes the DB in that window: a process crash (a copy of the files)
// loses no acknowledged write; a synchronous write waits for the retired
// WAL's sync, so a machine crash right after it is acknowledged (each WAL
// cut to what was synced) loses neither it nor a write logged before it.
func TestRetiredWALWindow(t *testing.T) {
	dir := t.TempDir()
	g := newSyncGateFS()
	o := testOptions()
	db := mustOpenFS(t, dir, g, o)
	defer db.Close()
	db.mu.Lock()
	first := db.mu.logNum
	g.gated = filepath.Base(walName(dir, first))
	db.mu.Unlock()
	value := strings.Repeat("v", 1000)
	n := 0
	for ; db.mu.logNum == first; n++ {
		put(t, db, fmt.Sprintf("key%05d", n), value)
	}
	for i := n; i < n+10; i++ {
		put(t, db, fmt.Sprintf("key%05d", i), value)
	}
	n += 10
	db.mu.Lock()
	retiring := db.mu.retiringWALs
	db.mu.Unlock()
	if retiring != 1 {
		t.Fatalf("%d WALs retiring after the switch from %s, want 1", retiring, g.gated)
	}

	killed := t.TempDir()
	copyDir(t, dir, killed)
	reopened := mustOpen(t, killed, testOptions())
	for i := 0; i < n; i++ {
		if v, ok := getString(t, reopened, fmt.Sprintf("key%05d", i)); !ok || v != value {
			t.Fatalf("process crash while %s was retiring: acknowledged key %d lost", g.gated, i)
		}
	}
	if err := reopened.Close(); err != nil {
		t.Fatal(err)
	}

	done := make(chan error, 1)
	go func() {
		b := NewBatch()
		b.Put([]byte("synced"), []byte("1"))
		done <- db.Write(b, WriteOptions{Sync: true})
	}()
	for queued := 0; queued == 0; runtime.Gosched() {
		select {
		case err := <-done:
			t.Fatalf("synchronous write acknowledged (error %v) while the sync of the retired %s was held", err, g.gated)
		default:
		}
		db.mu.Lock()
		queued = db.mu.writers.len()
		db.mu.Unlock()
	}
	close(g.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	g.mu.Lock()
	violation := g.violation
	g.mu.Unlock()
	if violation != "" {
		t.Fatalf("the synchronous write did not wait for the retired WAL: %s", violation)
	}
	lost := g.powerLossCopy(t, dir)
	reopened = mustOpen(t, lost, testOptions())
	defer reopened.Close()
	if v, ok := getString(t, reopened, "synced"); !ok || v != "1" {
		t.Fatalf("machine crash after a synchronous write: the write lost (found %v)", ok)
	}
	for i := 0; i < n; i++ {
		if v, ok := getString(t, reopened, fmt.Sprintf("key%05d", i)); !ok || v != value {
			t.Fatalf("machine crash after a synchronous write: key %d, logged before it, lost", i)
		}
	}
}

// failSyncFS fails every Sync of the file named failing.
type failSyncFS struct {
	FS
	failing string
}

type failSyncFile struct {
	WritableFile
	fs   *failSyncFS
	name string
}

var errSyncFailed = errors.New("sync failed")

func (f *failSyncFS) Create(name string) (WritableFile, error) {
	w, err := f.FS.Create(name)
	if err != nil {
		return nil, err
	}
	return &failSyncFile{WritableFile: w, fs: f, name: filepath.Base(name)}, nil
}

func (f *failSyncFile) Sync() error {
	if f.name == f.fs.failing {
		return errSyncFailed
	}
	return f.WritableFile.Sync()
}

// TestCloseReportsRetiredWALSyncFailure: Close fails when a retired WAL's
// sync failed, as when the active WAL's does (it returned nil).
func TestCloseReportsRetiredWALSyncFailure(t *testing.T) {
	dir := t.TempDir()
	ffs := &failSyncFS{FS: DefaultFS}
	db := mustOpenFS(t, dir, ffs, testOptions())
	first := db.mu.logNum
	ffs.failing = filepath.Base(walName(dir, first))
	value := strings.Repeat("v", 1000)
	for i := 0; db.mu.logNum == first; i++ {
		put(t, db, fmt.Sprintf("key%05d", i), value)
	}
	if err := db.Close(); !errors.Is(err, errSyncFailed) {
		t.Fatalf("Close after the retired WAL's sync failed: %v, want %v", err, errSyncFailed)
	}
}

// TestRetiredWALSyncFailure: when the sync of a WAL a switch retired fails,
// a synchronous write that follows fails with it and writes stop, as after
// a failed WAL write.
func TestRetiredWALSyncFailure(t *testing.T) {
	dir := t.TempDir()
	ffs := &failSyncFS{FS: DefaultFS}
	db := mustOpenFS(t, dir, ffs, testOptions())
	defer db.Close()
	first := db.mu.logNum
	ffs.failing = filepath.Base(walName(dir, first))
	value := strings.Repeat("v", 1000)
	for i := 0; db.mu.logNum == first; i++ {
		put(t, db, fmt.Sprintf("key%05d", i), value)
	}
	b := NewBatch()
	b.Put([]byte("synced"), []byte("1"))
	if err := db.Write(b, WriteOptions{Sync: true}); !errors.Is(err, errSyncFailed) {
		t.Fatalf("synchronous write after the retired WAL's sync failed: %v, want %v", err, errSyncFailed)
	}
	b.Reset()
	b.Put([]byte("later"), []byte("1"))
	if err := db.Write(b, WriteOptions{}); !errors.Is(err, errSyncFailed) {
		t.Fatalf("write after the failure: %v, want writes stopped with %v", err, errSyncFailed)
	}
}

// gatedFailFS holds the sync of the file named gated until release is
// closed, then fails it.
type gatedFailFS struct {
	FS
	mu      sync.Mutex
	gated   string
	release chan struct{}
}

type gatedFailFile struct {
	WritableFile
	fs   *gatedFailFS
	name string
}

func (g *gatedFailFS) Create(name string) (WritableFile, error) {
	w, err := g.FS.Create(name)
	if err != nil {
		return nil, err
	}
	return &gatedFailFile{WritableFile: w, fs: g, name: filepath.Base(name)}, nil
}

func (f *gatedFailFile) Sync() error {
	f.fs.mu.Lock()
	gated := f.fs.gated
	f.fs.mu.Unlock()
	if f.name == gated {
		<-f.fs.release
		return errSyncFailed
	}
	return f.WritableFile.Sync()
}

// TestRetiredWALSyncFailureWakesGroup: a leader that has counted followers
// into a synchronous group and then finds the retired WAL's sync failed
// forms no group; every writer it counted still returns, with the error
// (the followers were dropped from the queue and never woken, and hung).
// The leader counts them because a write delay (L0 at the slowdown
// trigger, a slow delayed_write_rate) lets them queue while it sleeps.
func TestRetiredWALSyncFailureWakesGroup(t *testing.T) {
	dir := t.TempDir()
	g := &gatedFailFS{FS: DefaultFS, release: make(chan struct{})}
	o := testOptions()
	o.Level0FileNumCompactionTrigger, o.Level0SlowdownWritesTrigger, o.Level0StopWritesTrigger = 100, 1, 100
	o.DelayedWriteRate = 1000 // a 100-byte write owes 0.1 s
	db := mustOpenFS(t, dir, g, o)
	defer db.Close()
	put(t, db, "a", "1")
	if err := db.Flush(); err != nil { // one L0 table: writes are delayed
		t.Fatal(err)
	}
	db.mu.Lock()
	g.mu.Lock()
	g.gated = filepath.Base(walName(dir, db.mu.logNum))
	g.mu.Unlock()
	db.mu.Unlock()
	put(t, db, "b", "1")
	flushed := make(chan error, 1)
	go func() { flushed <- db.Flush() }() // retires the gated WAL
	waitFor(t, db, "the gated WAL's retirement", func() bool { return db.mu.retiringWALs > 0 })
	done := make(chan error, 3)
	write := func(k string) {
		b := NewBatch()
		b.Put([]byte(k), bytes.Repeat([]byte("v"), 100))
		done <- db.Write(b, WriteOptions{Sync: true})
	}
	go write("leader")
	waitFor(t, db, "the leader queued (and sleeping off its delay)", func() bool { return db.mu.writers.len() == 1 })
	go write("follower1")
	go write("follower2")
	waitFor(t, db, "two followers queued", func() bool { return db.mu.writers.len() == 3 })
	// The delay ends; the leader counts the followers and waits for the
	// retired WAL. (Released before, the failure would reach the leader in
	// makeRoomForWrite instead, and the test would pass without testing.)
	waitFor(t, db, "the leader waiting for the retired WAL", func() bool { return db.mu.groupsAwaitingWALs == 1 })
	close(g.release)
	for i := range 3 {
		select {
		case err := <-done:
			if !errors.Is(err, errSyncFailed) {
				t.Errorf("write %d: %v, want the retired WAL's sync error", i, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of 3 writes returned; the rest hang", i)
		}
	}
	select {
	case <-flushed:
	case <-time.After(10 * time.Second):
		t.Fatal("the flush never returned")
	}
}

// waitFor polls cond with db's DB.mu held until it holds, failing t after
// 10 s.
func waitFor(t *testing.T, db *DB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		db.mu.Lock()
		ok := cond()
		db.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}
