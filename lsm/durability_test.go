package lsm

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// recordFS wraps DefaultFS and records, in order, file creations, file and
// directory fsyncs and removals, by base name.
type recordFS struct {
	FS
	mu  sync.Mutex
	ops []string
}

type recordFile struct {
	WritableFile
	fs   *recordFS
	name string
}

func (r *recordFS) add(op, name string) {
	r.mu.Lock()
	r.ops = append(r.ops, op+" "+filepath.Base(name))
	r.mu.Unlock()
}

func (r *recordFS) Create(name string) (WritableFile, error) {
	w, err := r.FS.Create(name)
	if err != nil {
		return nil, err
	}
	r.add("create", name)
	return &recordFile{WritableFile: w, fs: r, name: name}, nil
}

func (f *recordFile) Sync() error {
	f.fs.add("sync", f.name)
	return f.WritableFile.Sync()
}

func (r *recordFS) SyncDir(dir string) error {
	r.add("syncdir", dir)
	return r.FS.SyncDir(dir)
}

func (r *recordFS) Remove(name string) error {
	r.add("remove", name)
	return r.FS.Remove(name)
}

func (r *recordFS) index(from int, match func(op string) bool) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if from < 0 {
		return -1
	}
	for i := from; i < len(r.ops); i++ {
		if match(r.ops[i]) {
			return i
		}
	}
	return -1
}

func mustOpenFS(t *testing.T, dir string, fs FS, o *options.Options) *DB {
	t.Helper()
	db, err := Open(dir, o, Config{FS: fs})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestFlushDurabilityOrder: a flushed table is fsynced, then the DB
// directory, then the MANIFEST edit naming the table; the WAL the flush
// replaces is removed only after that.
func TestFlushDurabilityOrder(t *testing.T) {
	rfs := &recordFS{FS: DefaultFS}
	dir := t.TempDir()
	db := mustOpenFS(t, dir, rfs, testOptions())
	defer db.Close()
	oldWAL := filepath.Base(walName(dir, db.mu.logNum))
	start := len(rfs.ops)
	put(t, db, "k", "v")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	syncManifest := checkTableDurability(t, rfs, start, filepath.Base(dir))
	removeWAL := rfs.index(start, func(op string) bool { return op == "remove "+oldWAL })
	if removeWAL < syncManifest {
		t.Fatalf("the flushed WAL removed at %d, before the MANIFEST sync at %d\n%v", removeWAL, syncManifest, rfs.ops[start:])
	}
}

// checkTableDurability finds the first table created from op from on and
// requires its fsync, then the directory's, then the MANIFEST's, in that
// order; it returns the MANIFEST sync's index.
func checkTableDurability(t *testing.T, rfs *recordFS, from int, dir string) int {
	t.Helper()
	create := rfs.index(from, func(op string) bool { return strings.HasPrefix(op, "create ") && strings.HasSuffix(op, ".sst") })
	if create < 0 {
		t.Fatalf("no table created: %v", rfs.ops[from:])
	}
	table := strings.TrimPrefix(rfs.ops[create], "create ")
	syncTable := rfs.index(create, func(op string) bool { return op == "sync "+table })
	syncDir := rfs.index(syncTable, func(op string) bool { return op == "syncdir "+dir })
	syncManifest := rfs.index(syncDir, func(op string) bool { return strings.HasPrefix(op, "sync MANIFEST-") })
	if syncTable < 0 || syncDir < 0 || syncManifest < 0 {
		t.Fatalf("order: table sync %d, dir sync %d, MANIFEST sync %d; want increasing\n%v", syncTable, syncDir, syncManifest, rfs.ops[from:])
	}
	return syncManifest
}

// TestCompactionDurabilityOrder: a compaction's output is fsynced, then the
// DB directory, then the MANIFEST edit; its inputs are removed after that.
func TestCompactionDurabilityOrder(t *testing.T) {
	rfs := &recordFS{FS: DefaultFS}
	dir := t.TempDir()
	o := testOptions()
	o.Level0FileNumCompactionTrigger = 10 // compact only when asked
	db := mustOpenFS(t, dir, rfs, o)
	defer db.Close()
	for round := 0; round < 2; round++ {
		for i := 0; i < 50; i++ {
			put(t, db, fmt.Sprintf("key%03d", i), fmt.Sprint(round))
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	inputs := filesOf(t, dir, fileTable)
	start := len(rfs.ops)
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	syncManifest := checkTableDurability(t, rfs, start, filepath.Base(dir))
	for _, in := range inputs {
		if rm := rfs.index(start, func(op string) bool { return op == "remove "+filepath.Base(in) }); rm < syncManifest {
			t.Fatalf("input %s removed at %d, before the MANIFEST sync at %d\n%v", in, rm, syncManifest, rfs.ops[start:])
		}
	}
}

// TestRecoveryOneWALAtATime: recovery records each WAL's tables and deletes
// that WAL before it writes the next one's tables, so it needs free space
// for one WAL's tables, not all of them.
func TestRecoveryOneWALAtATime(t *testing.T) {
	dir, logs := filledDir(t, false, fileWAL)
	parts := splitWAL(t, logs[0], 100)
	if len(parts) != 3 {
		t.Fatalf("split into %v", parts)
	}
	rfs := &recordFS{FS: DefaultFS}
	db := mustOpenFS(t, dir, rfs, testOptions())
	defer db.Close()
	checkKeys(t, db, nil)
	isTable := func(op string) bool { return strings.HasPrefix(op, "create ") && strings.HasSuffix(op, ".sst") }
	from := 0
	for i, p := range parts[:2] {
		table := rfs.index(from, isTable)
		remove := rfs.index(table, func(op string) bool { return op == "remove "+filepath.Base(p) })
		next := rfs.index(table+1, isTable)
		if table < 0 || remove < 0 || next < remove {
			t.Fatalf("WAL %d: its table created at %d, it was removed at %d, the next table created at %d\n%v", i, table, remove, next, rfs.ops)
		}
		from = next
	}
}
