package lsm

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// flushedTable flushes db and returns the number of the one new L0 table.
func flushedTable(t *testing.T, db *DB) uint64 {
	t.Helper()
	before := map[uint64]bool{}
	files, err := db.LiveFiles()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		before[f.Num] = true
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if files, err = db.LiveFiles(); err != nil {
		t.Fatal(err)
	}
	var made []uint64
	for _, f := range files {
		if !before[f.Num] && f.Level == 0 {
			made = append(made, f.Num)
		}
	}
	if len(made) != 1 {
		t.Fatalf("flush made L0 tables %v, want one", made)
	}
	return made[0]
}

// tablesAt returns the numbers of db's tables in level.
func tablesAt(t *testing.T, db *DB, level int) []uint64 {
	t.Helper()
	files, err := db.LiveFiles()
	if err != nil {
		t.Fatal(err)
	}
	var nums []uint64
	for _, f := range files {
		if f.Level == level {
			nums = append(nums, f.Num)
		}
	}
	return nums
}

// TestCompactFilesTakesLevelsBetween: CompactFiles into a level below the
// next takes the tables of the levels between that overlap, as RocksDB's
// does. It moved only the named tables, under older versions of their
// keys: a Get stopped at the older value above, and a tombstone dropped at
// the bottom brought it back for good.
func TestCompactFilesTakesLevelsBetween(t *testing.T) {
	for _, c := range []struct {
		name   string
		write  func(db *DB)
		from   int // the level the newer table is compacted from
		to     int
		want   string
		wantOK bool
	}{
		{"newer value from L0", func(db *DB) { put(t, db, "k", "new") }, 0, 2, "new", true},
		{"tombstone from L0", func(db *DB) { del(t, db, "k") }, 0, 2, "", false},
		{"newer value from L1", func(db *DB) { put(t, db, "k", "new") }, 1, 3, "new", true},
		{"tombstone from L1", func(db *DB) { del(t, db, "k") }, 1, 3, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := testOptions()
			o.DisableAutoCompactions = true
			db := mustOpen(t, t.TempDir(), o)
			defer db.Close()
			put(t, db, "k", "old")
			put(t, db, "j", "other")
			older := flushedTable(t, db)
			if err := db.CompactFiles([]uint64{older}, c.from+1); err != nil {
				t.Fatal(err)
			}
			c.write(db)
			newer := flushedTable(t, db)
			if c.from > 0 {
				if err := db.CompactFiles([]uint64{newer}, c.from); err != nil {
					t.Fatal(err)
				}
				newer = tablesAt(t, db, c.from)[0]
			}
			if err := db.CompactFiles([]uint64{newer}, c.to); err != nil {
				t.Fatal(err)
			}
			for level := range c.to {
				if nums := tablesAt(t, db, level); len(nums) != 0 {
					t.Errorf("L%d holds %v after compacting to L%d", level, nums, c.to)
				}
			}
			if v, ok := getString(t, db, "k"); ok != c.wantOK || v != c.want {
				t.Fatalf("k = %q, %v; want %q, %v", v, ok, c.want, c.wantOK)
			}
			if v, ok := getString(t, db, "j"); !ok || v != "other" {
				t.Fatalf("j = %q, %v", v, ok)
			}
		})
	}
}

// TestCompactFilesLevelSpan: tables of a level >= 1 named out of key order,
// with one between them left out, compacted within their level: the one
// between is taken too (the output covers its range) and the keys merge in
// order. Before, the output overlapped the table left out or came out of
// order, the edit was refused and writes stopped.
func TestCompactFilesLevelSpan(t *testing.T) {
	o := testOptions()
	o.DisableAutoCompactions = true
	db := mustOpen(t, t.TempDir(), o)
	defer db.Close()
	var l1 []uint64
	for _, prefix := range []string{"a", "b", "c"} {
		for i := range 10 {
			put(t, db, fmt.Sprintf("%s%02d", prefix, i), prefix)
		}
		num := flushedTable(t, db)
		if err := db.CompactFiles([]uint64{num}, 1); err != nil {
			t.Fatal(err)
		}
		l1 = tablesAt(t, db, 1)
	}
	if len(l1) != 3 {
		t.Fatalf("L1 tables %v, want 3", l1)
	}
	// L1's tables are listed in key order: a, b, c.
	if err := db.CompactFiles([]uint64{l1[2], l1[0]}, 1); err != nil {
		t.Fatalf("CompactFiles of L1's first and last tables: %v", err)
	}
	for _, prefix := range []string{"a", "b", "c"} {
		for i := range 10 {
			if v, ok := getString(t, db, fmt.Sprintf("%s%02d", prefix, i)); !ok || v != prefix {
				t.Fatalf("%s%02d = %q, %v", prefix, i, v, ok)
			}
		}
	}
	put(t, db, "d", "writes go on") // a refused edit stops them
}

// blockedTablesFS holds the creation of tables while armed, until release
// is closed.
type blockedTablesFS struct {
	FS
	armed   atomic.Bool
	release chan struct{}
}

func (b *blockedTablesFS) Create(name string) (WritableFile, error) {
	if b.armed.Load() && strings.HasSuffix(name, ".sst") {
		<-b.release
	}
	return b.FS.Create(name)
}

// TestCompactFilesCountsAsRunning: a CompactFiles in progress is counted
// with the running compactions, which a manual compaction waits for before
// it takes tables without looking whether they are being compacted.
func TestCompactFilesCountsAsRunning(t *testing.T) {
	fs := &blockedTablesFS{FS: DefaultFS, release: make(chan struct{})}
	o := testOptions()
	o.DisableAutoCompactions = true
	db := mustOpenFS(t, t.TempDir(), fs, o)
	defer db.Close()
	put(t, db, "k", "v")
	num := flushedTable(t, db)
	fs.armed.Store(true)
	done := make(chan error, 1)
	go func() { done <- db.CompactFiles([]uint64{num}, 1) }()
	waitFor(t, db, "CompactFiles counted as running", func() bool { return db.mu.runningCompactions == 1 })
	close(fs.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	db.mu.Lock()
	running := db.mu.runningCompactions
	db.mu.Unlock()
	if running != 0 {
		t.Fatalf("%d compactions counted running after CompactFiles returned", running)
	}
	if err := db.Compact(nil, nil, -1); err != nil && !errors.Is(err, ErrFilesBusy) {
		t.Fatal(err)
	}
}
