package lsm

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/lsm/wal"
	"github.com/godbbench/godbbench/options"
)

// listing maps each file of dir to its size.
func listing(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, e := range ents {
		st, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = st.Size()
	}
	return out
}

// openRefused opens dir, requires an error wrapping want and containing
// words, and requires the directory to be as it was before.
func openRefused(t *testing.T, dir string, o *options.Options, want error, words ...string) {
	t.Helper()
	before := listing(t, dir)
	db, err := Open(dir, o, Config{})
	if err == nil {
		db.Close()
		t.Fatalf("open succeeded; want an error wrapping %v", want)
	}
	if want != nil && !errors.Is(err, want) {
		t.Fatalf("open: %v; want an error wrapping %v", err, want)
	}
	for _, w := range words {
		if !strings.Contains(err.Error(), w) {
			t.Fatalf("open: %v; want it to say %q", err, w)
		}
	}
	if after := listing(t, dir); !maps.Equal(before, after) {
		t.Fatalf("a refused open changed the directory:\nbefore %v\nafter  %v", before, after)
	}
}

func removeAll(t *testing.T, paths []string) {
	for _, p := range paths {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
}

// checkKeys requires fillDB's 300 keys, except those in missing.
func checkKeys(t *testing.T, db *DB, missing map[int]bool) {
	t.Helper()
	for i := 0; i < 300; i++ {
		v, ok := getString(t, db, fmt.Sprintf("key%05d", i))
		if missing[i] {
			continue
		}
		if !ok || v != fmt.Sprintf("value%05d", i) {
			t.Fatalf("key%05d: %q, %v", i, v, ok)
		}
	}
}

func TestOpenMissingCurrentWithWAL(t *testing.T) {
	dir := t.TempDir()
	fillDB(t, dir, false)
	os.Remove(filepath.Join(dir, currentName))
	openRefused(t, dir, testOptions(), ErrCorruption, "While creating a new Db, wal_dir contains existing log file: ", ".log")
}

func TestOpenMissingCurrentWithTables(t *testing.T) {
	dir, tables := filledDir(t, true, fileTable)
	os.Remove(filepath.Join(dir, currentName))
	removeAll(t, filesOf(t, dir, fileWAL))
	openRefused(t, dir, testOptions(), ErrCorruption, "CURRENT is missing", filepath.Base(tables[0]), "MANIFEST-")
	// The MANIFEST alone, listing the tables, is refused too.
	removeAll(t, tables)
	openRefused(t, dir, testOptions(), ErrCorruption, "MANIFEST-")
}

// TestOpenMissingCurrentEmptyManifest: a crash between a new DB's MANIFEST
// and its CURRENT leaves a MANIFEST listing no table; that DB opens.
func TestOpenMissingCurrentEmptyManifest(t *testing.T) {
	dir := t.TempDir()
	mustOpen(t, dir, testOptions()).Close()
	os.Remove(filepath.Join(dir, currentName))
	removeAll(t, filesOf(t, dir, fileWAL))
	db := mustOpen(t, dir, testOptions())
	put(t, db, "a", "b")
	db.Close()
}

func TestOpenCurrentNamesMissingManifest(t *testing.T) {
	dir := t.TempDir()
	fillDB(t, dir, true)
	removeAll(t, filesOf(t, dir, fileManifest))
	openRefused(t, dir, testOptions(), ErrCorruption, "CURRENT names MANIFEST-", "missing")
}

func TestOpenTableMissingOrShort(t *testing.T) {
	for _, fc := range formatCases {
		t.Run(fc.name, func(t *testing.T) {
			dir, tables := filledDirAs(t, true, fileTable, fc)
			data, err := os.ReadFile(tables[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(tables[0], data[:len(data)/2], 0o644); err != nil {
				t.Fatal(err)
			}
			o := fc.with(testOptions())
			openRefused(t, dir, o, ErrCorruption, filepath.Base(tables[0]), fmt.Sprintf("is %d bytes", len(data)/2), fmt.Sprintf("records %d", len(data)))
			os.Remove(tables[0])
			openRefused(t, dir, o, ErrCorruption, filepath.Base(tables[0]), "cannot be opened")
		})
	}
}

// TestOpenTableBadFooter flips a byte of a listed table's footer (its last
// bytes) in either format: the open is refused, naming the table.
func TestOpenTableBadFooter(t *testing.T) {
	for _, fc := range formatCases {
		t.Run(fc.name, func(t *testing.T) {
			dir, tables := filledDirAs(t, true, fileTable, fc)
			st, err := os.Stat(tables[0])
			if err != nil {
				t.Fatal(err)
			}
			flipByte(t, tables[0], int(st.Size())-12)
			openRefused(t, dir, fc.with(testOptions()), ErrCorruption, filepath.Base(tables[0]), "footer is bad")
		})
	}
}

// TestOpenTruncatedManifest cuts a MANIFEST of many edits at 150 lengths:
// the open either fails, changing nothing, or finds every key.
func TestOpenTruncatedManifest(t *testing.T) {
	src := t.TempDir()
	o := testOptions()
	db := mustOpen(t, src, o)
	for i := 0; i < 300; i++ {
		put(t, db, fmt.Sprintf("key%05d", i), fmt.Sprintf("value%05d", i))
		if i%40 == 39 {
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Keys 280 to 299 stay in the WAL: tables cut from the MANIFEST hold
	// older writes than the WAL's.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	manifests := filesOf(t, src, fileManifest)
	if len(manifests) != 1 {
		t.Fatalf("manifests %v", manifests)
	}
	data, err := os.ReadFile(manifests[0])
	if err != nil {
		t.Fatal(err)
	}
	opened := 0
	for cut := 0; cut < len(data); cut += 1 + len(data)/150 {
		dir := t.TempDir()
		copyDir(t, src, dir)
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(manifests[0])), data[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		before := listing(t, dir)
		db, err := Open(dir, o, Config{})
		if err != nil {
			if after := listing(t, dir); !maps.Equal(before, after) {
				t.Fatalf("cut %d: %v; the refused open changed the directory:\nbefore %v\nafter  %v", cut, err, before, after)
			}
			continue
		}
		opened++
		checkKeys(t, db, nil)
		db.Close()
	}
	t.Logf("%d of the cuts opened with every key; the rest failed", opened)
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := tryCopyDir(src, dst); err != nil {
		t.Fatal(err)
	}
}

// tryCopyDir copies every file of src into dst; a file that an open DB
// deletes between the listing and the read fails it with a not-exist error.
func tryCopyDir(src, dst string) error {
	ents, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TestOpenOrphanTableWithLaterWrites: a table in no version that holds
// writes past the recovered state (its MANIFEST edit lost) fails the open.
func TestOpenOrphanTableWithLaterWrites(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, dir, testOptions())
	put(t, db, "a", "1")
	db.Close()
	saved := t.TempDir()
	copyDir(t, dir, saved)
	db = mustOpen(t, dir, testOptions())
	put(t, db, "b", "2")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// Put back the old MANIFEST, CURRENT and WALs: the new table is in no
	// version and holds sequence numbers past the old state.
	for _, typ := range []fileType{fileManifest, fileWAL} {
		removeAll(t, filesOf(t, dir, typ))
	}
	for _, n := range []string{currentName} {
		os.Remove(filepath.Join(dir, n))
	}
	ents, _ := os.ReadDir(saved)
	for _, e := range ents {
		if t2, _ := parseFileName(e.Name()); t2 == fileManifest || t2 == fileWAL || e.Name() == currentName {
			data, _ := os.ReadFile(filepath.Join(saved, e.Name()))
			os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644)
		}
	}
	openRefused(t, dir, testOptions(), ErrCorruption, ".sst is in no version but holds writes")
}

// TestOpenDeletesProvenObsoleteTable: a table in no version whose writes
// the recovered state holds (a flush whose MANIFEST edit a crash stopped)
// is deleted, and the data stays.
func TestOpenDeletesProvenObsoleteTable(t *testing.T) {
	dir := t.TempDir()
	fillDB(t, dir, true)
	tables := filesOf(t, dir, fileTable)
	data, _ := os.ReadFile(tables[0])
	extra := tableName(dir, 999990)
	os.WriteFile(extra, data, 0o644)
	db := mustOpen(t, dir, testOptions())
	checkKeys(t, db, nil)
	db.Close()
	if _, err := os.Stat(extra); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("obsolete table kept: %v", err)
	}
	// One that does not decode is left alone.
	os.WriteFile(extra, data[:100], 0o644)
	mustOpen(t, dir, testOptions()).Close()
	if _, err := os.Stat(extra); err != nil {
		t.Fatalf("undecodable table removed: %v", err)
	}
}

func TestOpenRocksDBDirectory(t *testing.T) {
	const tool = "/usr/bin/db_bench"
	if _, err := os.Stat(tool); err != nil {
		t.Skipf("SKIP: %s (C++ db_bench) not installed: cannot create a RocksDB directory", tool)
	}
	dir := t.TempDir()
	out, err := exec.Command(tool, "--benchmarks=fillseq", "--num=10", "--db="+dir).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", tool, err, out)
	}
	openRefused(t, dir, testOptions(), nil, "holds a RocksDB database (MANIFEST-", `is RocksDB's format, comparator "leveldb.BytewiseComparator"); open it with --engine=rocksdb`)
	os.Remove(filepath.Join(dir, currentName))
	openRefused(t, dir, testOptions(), nil, "holds a RocksDB database (IDENTITY is RocksDB's); open it with --engine=rocksdb")
}

// foreignManifestDir returns a directory holding LOCK, CURRENT and a
// MANIFEST whose first edit starts with a comparator name, as RocksDB's and
// Pebble's do.
func foreignManifestDir(t *testing.T) string {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, lockName), nil, 0o644)
	var rec []byte
	rec = append(rec, 1, 26)
	rec = append(rec, "leveldb.BytewiseComparator"...)
	rec = append(rec, 2, 2, 4, 0)
	f, _ := os.Create(filepath.Join(dir, "MANIFEST-000001"))
	w := wal.NewWriter(f)
	w.AddRecord(rec)
	w.Flush()
	f.Close()
	os.WriteFile(filepath.Join(dir, currentName), []byte("MANIFEST-000001\n"), 0o644)
	return dir
}

// TestOpenForeignDirectoryByFormat builds the signs of other engines by hand.
func TestOpenForeignDirectoryByFormat(t *testing.T) {
	// Pebble keeps no CURRENT: a marker beside a MANIFEST.
	dir := t.TempDir()
	for _, n := range []string{lockName, "marker.format-version.000011.024", "MANIFEST-000001"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	openRefused(t, dir, testOptions(), nil, "holds a Pebble database (marker.format-version.000011.024 is Pebble's); open it with --engine=pebble")

	dir = foreignManifestDir(t)
	openRefused(t, dir, testOptions(), nil, "holds a RocksDB database (MANIFEST-000001 is RocksDB's format")
	os.WriteFile(filepath.Join(dir, "OPTIONS-000003"), []byte("[Version]\n  pebble_version=0.1\n"), 0o644)
	openRefused(t, dir, testOptions(), nil, "holds a Pebble database (MANIFEST-000001 is in Pebble's format", "--engine=pebble")
}

// TestOpenForeignLeftovers: a marker or IDENTITY file alone, or beside this
// engine's DB (what Destroy leaves of another engine's directory), is not
// another engine's DB.
func TestOpenForeignLeftovers(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"marker.format-version.000011.024", "IDENTITY"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	db := mustOpen(t, dir, testOptions())
	put(t, db, "a", "b")
	db.Close()
	db = mustOpen(t, dir, testOptions())
	if v, ok := getString(t, db, "a"); !ok || v != "b" {
		t.Fatalf("a: %q %v", v, ok)
	}
	db.Close()
}

// TestOpenMissingWAL: the WAL the MANIFEST's log number names holds writes
// in no table; without it the open fails instead of losing them.
func TestOpenMissingWAL(t *testing.T) {
	dir, logs := filledDir(t, false, fileWAL)
	removeAll(t, logs)
	openRefused(t, dir, testOptions(), ErrCorruption, filepath.Base(logs[0]), "is missing")
}

// TestOpenMissingCurrentWithWALDir: the WALs in a separate --wal_dir count
// too, and neither directory changes.
func TestOpenMissingCurrentWithWALDir(t *testing.T) {
	dir, walDir := t.TempDir(), t.TempDir()
	o := testOptions()
	o.WALDir = walDir
	db := mustOpen(t, dir, o)
	put(t, db, "a", "b")
	db.Close()
	os.Remove(filepath.Join(dir, currentName))
	walBefore := listing(t, walDir)
	openRefused(t, dir, o, ErrCorruption, "While creating a new Db, wal_dir contains existing log file: ")
	if after := listing(t, walDir); !maps.Equal(walBefore, after) {
		t.Fatalf("the WAL dir changed: %v -> %v", walBefore, after)
	}
}

// TestReadOnlyOpenChecksToo: a read-only open refuses another engine's
// directory and a missing table the same way.
func TestReadOnlyOpenChecksToo(t *testing.T) {
	ro := testOptions()
	ro.ReadOnly = true
	dir := foreignManifestDir(t)
	os.WriteFile(filepath.Join(dir, "marker.manifest.000001.MANIFEST-000001"), nil, 0o644)
	openRefused(t, dir, ro, nil, "holds a Pebble database")
	dir, tables := filledDir(t, true, fileTable)
	os.Remove(tables[0])
	openRefused(t, dir, ro, ErrCorruption, filepath.Base(tables[0]), "cannot be opened")
}
