package lsm

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

// quotaFS wraps DefaultFS with a limit on the bytes all files of the
// directories it writes may hold, like a small file system: a write past it
// fails with ENOSPC.
type quotaFS struct {
	FS
	mu    sync.Mutex
	used  int64
	limit int64
}

type quotaFile struct {
	WritableFile
	fs *quotaFS
}

func (q *quotaFS) Create(name string) (WritableFile, error) {
	if st, err := os.Stat(name); err == nil {
		q.mu.Lock()
		q.used -= st.Size() // truncated
		q.mu.Unlock()
	}
	w, err := q.FS.Create(name)
	if err != nil {
		return nil, err
	}
	return &quotaFile{WritableFile: w, fs: q}, nil
}

func (f *quotaFile) Write(p []byte) (int, error) {
	f.fs.mu.Lock()
	if f.fs.used+int64(len(p)) > f.fs.limit {
		f.fs.mu.Unlock()
		return 0, syscall.ENOSPC
	}
	f.fs.used += int64(len(p))
	f.fs.mu.Unlock()
	return f.WritableFile.Write(p)
}

func (q *quotaFS) Remove(name string) error {
	st, err := os.Stat(name)
	if err := q.FS.Remove(name); err != nil {
		return err
	}
	if err == nil {
		q.mu.Lock()
		q.used -= st.Size()
		q.mu.Unlock()
	}
	return nil
}

func dirBytes(t *testing.T, dir string) int64 {
	var n int64
	for _, size := range listing(t, dir) {
		n += size
	}
	return n
}

// TestRecoveryFitsOneWALOfSpace: a DB left with three WALs of about 130 KB
// reopens with 200 KB free: recovery needs room for one WAL's tables at a
// time, not for all three.
func TestRecoveryFitsOneWALOfSpace(t *testing.T) {
	dir := t.TempDir()
	o := testOptions()
	o.WriteBufferSize = 4 << 20 // one memtable: nothing flushed
	db := mustOpen(t, dir, o)
	for i := 0; i < 3000; i++ {
		put(t, db, fmt.Sprintf("key%05d", i), fmt.Sprintf("%0100d", i))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	logs := filesOf(t, dir, fileWAL)
	parts := splitWAL(t, logs[0], 1000)
	st, _ := os.Stat(parts[0])
	if len(parts) != 3 || st.Size() < 100<<10 {
		t.Fatalf("WALs %v, the first %d bytes", parts, st.Size())
	}
	used := dirBytes(t, dir)
	q := &quotaFS{FS: DefaultFS, used: used, limit: used + 200<<10}
	db, err := Open(dir, o, Config{FS: q})
	if err != nil {
		t.Fatalf("reopen with %d bytes free: %v", q.limit-used, err)
	}
	for i := 0; i < 3000; i += 7 {
		if v, ok := getString(t, db, fmt.Sprintf("key%05d", i)); !ok || v != fmt.Sprintf("%0100d", i) {
			t.Fatalf("key%05d: %q %v", i, v, ok)
		}
	}
	db.Close()
	if n := len(filesOf(t, dir, fileWAL)); n != 1 {
		t.Fatalf("%d WALs after recovery in %s", n, filepath.Base(dir))
	}
}
