package lsm

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/internal/dbdestroy/dbdestroytest"
	"github.com/godbbench/godbbench/options"
)

// makeReadOnlyFixture leaves a closed DB whose data sits in several L0
// tables (more than level0_file_num_compaction_trigger, compactions off)
// and in a WAL larger than testOptions' write buffer, with an overwrite and
// a delete in the WAL. It returns the expected contents.
func makeReadOnlyFixture(t *testing.T, dir string) map[string]string {
	t.Helper()
	o := testOptions()
	o.DisableAutoCompactions = true
	o.WriteBufferSize = 8 << 20
	db := mustOpen(t, dir, o)
	want := map[string]string{}
	for f := range 3 {
		for i := range 50 {
			k, v := fmt.Sprintf("t%d-%03d", f, i), fmt.Sprintf("table value %d %d", f, i)
			put(t, db, k, v)
			want[k] = v
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	value := string(make([]byte, 1000))
	for i := range 300 { // 300 KB: several 64 KiB memtables on replay
		k := fmt.Sprintf("w%04d", i)
		put(t, db, k, value)
		want[k] = value
	}
	put(t, db, "t0-000", "overwritten in the WAL")
	want["t0-000"] = "overwritten in the WAL"
	del(t, db, "t1-000")
	delete(want, "t1-000")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(filesOf(t, dir, fileTable)); n < 3 {
		t.Fatalf("fixture has %d tables", n)
	}
	return want
}

func readOnlyOptions() *options.Options {
	o := testOptions()
	o.ReadOnly = true
	return o
}

func checkContents(t *testing.T, db *DB, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got, ok := getString(t, db, k); !ok || got != v {
			t.Fatalf("Get(%s) = %.20q %v, want %.20q", k, got, ok, v)
		}
	}
	if _, ok := getString(t, db, "t1-000"); ok {
		t.Fatal("deleted key found")
	}
	it, err := db.NewIter(&IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	n := 0
	for it.First(); it.Valid(); it.Next() {
		val, err := it.Value()
		if v, ok := want[string(it.Key())]; !ok || err != nil || v != string(val) {
			t.Fatalf("scan: %q unexpected (%v)", it.Key(), err)
		}
		n++
	}
	if err := it.Error(); err != nil || n != len(want) {
		t.Fatalf("scan: %d entries, want %d (%v)", n, len(want), err)
	}
}

// TestReadOnlyOpenChangesNothing: a read-only open reads tables and WALs and
// leaves every file byte-identical; writes fail with RocksDB's words.
func TestReadOnlyOpenChangesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	want := makeReadOnlyFixture(t, dir)
	before := dbdestroytest.Tree(t, dir)
	db := mustOpen(t, dir, readOnlyOptions())
	if len(db.def.imm) < 2 {
		t.Errorf("WAL replayed into %d immutable memtables, want several", len(db.def.imm))
	}
	checkContents(t, db, want)
	b := NewBatch()
	b.Put([]byte("new"), []byte("v"))
	const words = "Not implemented: Not supported operation in read only mode."
	for name, err := range map[string]error{
		"Write":   db.Write(b, WriteOptions{}),
		"Flush":   db.Flush(),
		"Compact": db.Compact(nil, nil, -1),
	} {
		if !errors.Is(err, ErrReadOnly) || err.Error() != words {
			t.Errorf("%s on a read-only DB: %v, want %q", name, err, words)
		}
	}
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	if _, ok := getString(t, db, "new"); ok {
		t.Error("a refused write is visible")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if after := dbdestroytest.Tree(t, dir); !maps.Equal(before, after) {
		t.Fatalf("read-only open changed files: %d entries before, %d after", len(before), len(after))
	}
	// The data is still all there for a read-write open.
	db = mustOpen(t, dir, testOptions())
	checkContents(t, db, want)
	db.Close()
}

// TestReadOnlyBesideWriter: like RocksDB's OpenForReadOnly, a read-only open
// takes no LOCK, so it works while a writer holds the DB.
func TestReadOnlyBesideWriter(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	want := makeReadOnlyFixture(t, dir)
	w := mustOpen(t, dir, testOptions())
	defer w.Close()
	if err := w.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	db := mustOpen(t, dir, readOnlyOptions())
	checkContents(t, db, want)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestReadOnlyMissingDB: a read-only open of a missing or empty directory
// fails on CURRENT in RocksDB's words and creates nothing.
func TestReadOnlyMissingDB(t *testing.T) {
	root := t.TempDir()
	empty := filepath.Join(root, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(root, "missing"), empty} {
		_, err := Open(dir, readOnlyOptions(), Config{})
		want := "IO error: No such file or directory: While opening a file for sequentially reading: " +
			filepath.Join(dir, "CURRENT") + ": No such file or directory"
		if err == nil || err.Error() != want {
			t.Errorf("read-only open of %s: %v, want %q", dir, err, want)
		}
	}
	got := dbdestroytest.Tree(t, root)
	if want := map[string]string{".": "dir", "empty": "dir"}; !maps.Equal(got, want) {
		t.Fatalf("read-only opens created files: %v", got)
	}
}
