package lsm

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/godbbench/godbbench/options"
	"github.com/godbbench/godbbench/sst"
)

func deleteRange(t testing.TB, db *DB, start, end string) {
	t.Helper()
	b := NewBatch()
	b.DeleteRange([]byte(start), []byte(end))
	if err := db.Write(b, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// visibleKeys returns the keys a forward scan of db sees.
func visibleKeys(t testing.TB, db *DB) []string {
	t.Helper()
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for ok := it.First(); ok; ok = it.Next() {
		keys = append(keys, string(it.Key()))
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	return keys
}

// TestRangeDelWALReplay: a range tombstone only in the WAL deletes its
// keys, in tables and in the WAL, after a reopen.
func TestRangeDelWALReplay(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, testOptions())
	for i := range 10 {
		put(t, db, fmt.Sprintf("k%d", i), "v")
		if i == 4 {
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	deleteRange(t, db, "k2", "k7")
	put(t, db, "k3", "again")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, dir, testOptions())
	defer db.Close()
	want := "[k0 k1 k3 k7 k8 k9]"
	if got := fmt.Sprint(visibleKeys(t, db)); got != want {
		t.Fatalf("after replay: %s, want %s", got, want)
	}
	for _, k := range []string{"k2", "k4", "k6"} {
		if found, err := db.Get([]byte(k), nil); found || err != nil {
			t.Fatalf("Get(%s) = %v, %v after replay", k, found, err)
		}
	}
}

// TestRangeDelSnapshotSurvivesCompaction: a snapshot taken before a range
// deletion keeps seeing the deleted keys through flushes and full
// compactions, the compaction's output table (of either format) holds the
// tombstone and hides the keys after a reopen, and the keys are gone from
// tables once the snapshot is released.
func TestRangeDelSnapshotSurvivesCompaction(t *testing.T) {
	for _, fc := range formatCases {
		t.Run(fc.name, func(t *testing.T) { testRangeDelSnapshotSurvivesCompaction(t, fc) })
	}
}

func testRangeDelSnapshotSurvivesCompaction(t *testing.T, fc formatCase) {
	dir := t.TempDir()
	o := fc.with(testOptions())
	db := mustOpen(t, dir, o)
	defer func() { db.Close() }()
	for i := range 100 {
		put(t, db, fmt.Sprintf("k%03d", i), "v")
	}
	snap := db.NewSnapshot()
	deleteRange(t, db, "k010", "k090")
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	if found, err := snap.Get([]byte("k050"), nil); !found || err != nil {
		t.Fatalf("snapshot Get(k050) = %v, %v after compaction", found, err)
	}
	if n := len(visibleKeys(t, db)); n != 20 {
		t.Fatalf("latest scan sees %d keys, want 20", n)
	}
	fc.requireFormat(t, db)
	if fc.format == options.TableFormatRTable && rtableRangeDelTables(t, db) == 0 {
		t.Fatal("the compaction wrote the tombstone into no rtable table")
	}
	snap.Release()
	// The covered keys are still in the table beside the tombstone: after
	// a reopen, only the tombstone read back from the table hides them.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, dir, o)
	if n := len(visibleKeys(t, db)); n != 20 {
		t.Fatalf("after reopening, a scan sees %d keys, want 20", n)
	}
	if found, err := db.Get([]byte("k050"), nil); found || err != nil {
		t.Fatalf("Get(k050) = %v, %v after reopening", found, err)
	}
	// A write overlapping the L1 table makes the next compaction rewrite
	// it (Compact leaves a lone bottommost level alone, as RocksDB does).
	put(t, db, "k095", "v2")
	if err := db.Compact(nil, nil, -1); err != nil {
		t.Fatal(err)
	}
	var entries, rangeDels uint64
	for _, files := range db.def.current.levels {
		for _, f := range files {
			entries += f.numEntries
			rangeDels += f.numRangeDels
		}
	}
	// The bottommost compaction drops the covered keys, the tombstone and
	// k095's older version.
	if entries != 20 || rangeDels != 0 {
		t.Fatalf("tables hold %d entries and %d range tombstones, want 20 and 0", entries, rangeDels)
	}
}

// TestRangeDelCorruptBlock damages a flushed table's range-deletion
// block: Open, Get or NewIter fail with sst.ErrCorruption; no read returns a
// deleted key.
func TestRangeDelCorruptBlock(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, testOptions())
	for i := range 20 {
		put(t, db, fmt.Sprintf("k%02d", i), "v")
	}
	deleteRange(t, db, "k05-range-start", "k15-range-end")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	tables, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	damaged := 0
	for _, name := range tables {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if i := bytes.Index(b, []byte("k05-range-start")); i >= 0 {
			b[i+3] ^= 0x01
			if err := os.WriteFile(name, b, 0o644); err != nil {
				t.Fatal(err)
			}
			damaged++
		}
	}
	if damaged != 1 {
		t.Fatalf("found the tombstone in %d tables, want 1", damaged)
	}
	db, err := Open(dir, testOptions(), Config{Version: "test"})
	if err != nil {
		if !errors.Is(err, sst.ErrCorruption) {
			t.Fatalf("Open: %v, want sst.ErrCorruption", err)
		}
		return
	}
	defer db.Close()
	found, err := db.Get([]byte("k10"), nil)
	if err == nil || !errors.Is(err, sst.ErrCorruption) {
		t.Fatalf("Get(k10) = %v, %v; want an sst.ErrCorruption error", found, err)
	}
	if it, err := db.NewIter(nil); err == nil {
		it.Close()
		t.Fatal("NewIter succeeded over a damaged range-deletion block")
	} else if !errors.Is(err, sst.ErrCorruption) {
		t.Fatalf("NewIter: %v, want sst.ErrCorruption", err)
	}
}

// failTableOpensFS fails the opens of table files while armed.
type failTableOpensFS struct {
	FS
	armed atomic.Bool
}

func (f *failTableOpensFS) OpenReadOnly(name string) (*os.File, error) {
	if t, _ := parseFileName(filepath.Base(name)); t == fileTable && f.armed.Load() {
		return nil, fmt.Errorf("open %s: %w", name, syscall.EMFILE)
	}
	return f.FS.OpenReadOnly(name)
}

// TestRangeDelTableOpenFailureNotKept: a read that fails to open a table
// holding range tombstones fails, and the next read of the same version,
// with the open working again, succeeds: the failure is not kept for the
// version's life.
func TestRangeDelTableOpenFailureNotKept(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, testOptions())
	put(t, db, "a", "1")
	put(t, db, "c", "3")
	deleteRange(t, db, "a", "b")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	fs := &failTableOpensFS{FS: DefaultFS}
	db = mustOpenFS(t, dir, fs, testOptions())
	defer db.Close()
	fs.armed.Store(true)
	if _, err := db.Get([]byte("c"), nil); !errors.Is(err, syscall.EMFILE) {
		t.Fatalf("Get with table opens failing: %v, want EMFILE", err)
	}
	fs.armed.Store(false)
	got, found := getString(t, db, "c")
	if !found || got != "3" {
		t.Fatalf("Get c after the opens work again: %q, %v", got, found)
	}
	if _, found := getString(t, db, "a"); found {
		t.Fatal("a, under the range tombstone, found")
	}
}
