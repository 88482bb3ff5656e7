package lsm

import (
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/dbdestroy/dbdestroytest"
)

// makeDB leaves a closed DB with tables, a WAL, a MANIFEST and LOG in dir.
func makeDB(t *testing.T, dir string, walDir string) {
	t.Helper()
	o := testOptions()
	o.WALDir = walDir
	db := mustOpen(t, dir, o)
	put(t, db, "a", "1")
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	put(t, db, "b", "2")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// dbFileNames lists the entries of dir that Destroy may delete.
func dbFileNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if isDBFileName(e.Name()) && !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestDestroyKeepsWhatItDidNotName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	makeDB(t, dir, "")
	unrelated := map[string]string{
		"notes.txt":               "mine",
		"000005.sst.bak":          "backup",
		"MANIFEST-old":            "not a number",
		"OPTIONS-x":               "not a number",
		"LOG.old.x":               "not a number",
		"IDENTITY2":               "other",
		"foo.log":                 "not a number",
		"sub/nested/deep.txt":     "nested",
		"sub/000007.sst":          "a table name one level down",
		"000099.sst/inside.txt":   "a directory with a table's name",
		"000100.log/inside.txt":   "a directory with a WAL's name",
		"CURRENT.d/000001.sst":    "",
		"archive/000003.log":      "",
		".hidden/MANIFEST-000001": "",
	}
	for name, c := range unrelated {
		dbdestroytest.WriteFile(t, filepath.Join(dir, name), c)
	}
	// Names the engine gives (or RocksDB gives the same kinds) go.
	for _, name := range []string{"OPTIONS-000009", "LOG.old.1700000000", "000077.dbtmp"} {
		dbdestroytest.WriteFile(t, filepath.Join(dir, name), "x")
	}
	if len(dbFileNames(t, dir)) < 6 {
		t.Fatalf("test DB too small: %v", dbFileNames(t, dir))
	}
	before := dbdestroytest.Tree(t, dir)
	if err := Destroy(dir, testOptions()); err != nil {
		t.Fatal(err)
	}
	if left := dbFileNames(t, dir); len(left) != 0 {
		t.Fatalf("DB files left: %v", left)
	}
	after := dbdestroytest.Tree(t, dir)
	for name, c := range unrelated {
		if after[name] != "file:"+c {
			t.Errorf("%s: %q after Destroy", name, after[name])
		}
	}
	for p, what := range after {
		if before[p] != what {
			t.Errorf("%s changed: %q -> %q", p, before[p], what)
		}
	}
}

func TestDestroyRemovesEmptyDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	makeDB(t, dir, "")
	if err := Destroy(dir, testOptions()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("empty DB dir not removed: %v", err)
	}
	// A missing DB is success.
	if err := Destroy(dir, testOptions()); err != nil {
		t.Fatalf("Destroy of a missing dir: %v", err)
	}
}

// TestDestroyParentDir is --db=..: only engine-named files of the parent go;
// the working directory, its siblings and the parent itself stay.
func TestDestroyParentDir(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "parent")
	makeDB(t, parent, "")
	dbdestroytest.WriteFile(t, filepath.Join(parent, "report.csv"), "r")
	dbdestroytest.WriteFile(t, filepath.Join(parent, "sibling", "000001.sst"), "s")
	child := filepath.Join(parent, "work")
	dbdestroytest.WriteFile(t, filepath.Join(child, "main.go"), "package main")
	t.Chdir(child)
	if err := Destroy("..", testOptions()); err != nil {
		t.Fatal(err)
	}
	if left := dbFileNames(t, parent); len(left) != 0 {
		t.Fatalf("DB files left: %v", left)
	}
	want := map[string]string{
		".":                  "dir",
		"report.csv":         "file:r",
		"sibling":            "dir",
		"sibling/000001.sst": "file:s",
		"work":               "dir",
		"work/main.go":       "file:package main",
	}
	if got := dbdestroytest.Tree(t, parent); !maps.Equal(got, want) {
		t.Fatalf("parent after Destroy(\"..\"):\n%v\nwant\n%v", got, want)
	}
	// The same through a path spelled with "..".
	makeDB(t, parent, "")
	if err := Destroy(filepath.Join(child, ".."), testOptions()); err != nil {
		t.Fatal(err)
	}
	if got := dbdestroytest.Tree(t, parent); !maps.Equal(got, want) {
		t.Fatalf("parent after Destroy(work/..): %v", got)
	}
}

func TestDestroySymlinks(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "db")
	makeDB(t, dir, "")
	outFile := filepath.Join(root, "outside.txt")
	outDir := filepath.Join(root, "outside")
	dbdestroytest.WriteFile(t, outFile, "precious")
	dbdestroytest.WriteFile(t, filepath.Join(outDir, "000001.sst"), "precious table")
	links := map[string]string{
		"000042.sst": outFile, // a DB file's name: the link goes, not its target
		"000043.log": outDir,
		"CURRENT.x":  outFile, // other names: the link stays
		"data":       outDir,
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := Destroy(dir, testOptions()); err != nil {
		t.Fatal(err)
	}
	got := dbdestroytest.Tree(t, dir)
	want := map[string]string{".": "dir", "CURRENT.x": "link:" + outFile, "data": "link:" + outDir}
	if !maps.Equal(got, want) {
		t.Fatalf("after Destroy: %v, want %v", got, want)
	}
	if b, err := os.ReadFile(outFile); err != nil || string(b) != "precious" {
		t.Fatalf("link target changed: %q %v", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(outDir, "000001.sst")); err != nil || string(b) != "precious table" {
		t.Fatalf("file in linked directory changed: %q %v", b, err)
	}

	// A LOCK that is a link is refused: taking the lock would open, and
	// might create or truncate, the target.
	makeDB(t, dir, "")
	if err := os.Remove(filepath.Join(dir, "LOCK")); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{outFile, filepath.Join(root, "absent")} {
		if err := os.Symlink(target, filepath.Join(dir, "LOCK")); err != nil {
			t.Fatal(err)
		}
		before := dbdestroytest.Tree(t, dir)
		want := "IO error: While lock file: " + filepath.Join(dir, "LOCK") + ": not a regular file"
		if err := Destroy(dir, testOptions()); err == nil || err.Error() != want {
			t.Fatalf("Destroy with LOCK a link: %v, want %q", err, want)
		}
		if after := dbdestroytest.Tree(t, dir); !maps.Equal(before, after) {
			t.Fatal("a refused Destroy changed the directory")
		}
		if _, err := os.Lstat(filepath.Join(root, "absent")); !errors.Is(err, os.ErrNotExist) {
			t.Fatal("Destroy created a LOCK link's target")
		}
		os.Remove(filepath.Join(dir, "LOCK"))
	}
	if b, err := os.ReadFile(outFile); err != nil || string(b) != "precious" {
		t.Fatalf("LOCK link target changed: %q %v", b, err)
	}

	// --db given as a link to a directory: the files inside go, the link
	// and the directory it names stay.
	real := filepath.Join(root, "real")
	makeDB(t, real, "")
	link := filepath.Join(root, "dblink")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := Destroy(link, testOptions()); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("--db link removed: %v", err)
	}
	if left := dbFileNames(t, real); len(left) != 0 {
		t.Fatalf("DB files left behind the link: %v", left)
	}
}

func TestDestroyRefusesDBOpenInProcess(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	makeDB(t, dir, "")
	db := mustOpen(t, dir, testOptions())
	put(t, db, "c", "3")
	if err := db.WaitForCompactions(); err != nil {
		t.Fatal(err)
	}
	before := dbdestroytest.Tree(t, dir)
	err := Destroy(dir, testOptions())
	dbdestroytest.CheckRefused(t, dir, err, before)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("%v does not wrap ErrLocked", err)
	}
	if v, ok := getString(t, db, "a"); !ok || v != "1" {
		t.Fatalf("open DB lost a key: %q %v", v, ok)
	}
	// A second Open is refused in the same words.
	_, err = Open(dir, testOptions(), Config{})
	if want := "IO error: While lock file: " + filepath.Join(dir, "LOCK") + ": Resource temporarily unavailable"; err == nil || err.Error() != want {
		t.Fatalf("second Open: %v, want %q", err, want)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := Destroy(dir, testOptions()); err != nil {
		t.Fatalf("Destroy after Close: %v", err)
	}
}

const destroyHolderEnv = "LSM_DESTROY_TEST_HOLDER"

// TestDestroyRefusesDBOpenInAnotherProcess re-runs the test binary as a
// child that opens the DB and holds it until its stdin closes.
func TestDestroyRefusesDBOpenInAnotherProcess(t *testing.T) {
	if dir := os.Getenv(destroyHolderEnv); dir != "" {
		dbdestroytest.ServeHold(func() (io.Closer, error) {
			db, err := Open(dir, testOptions(), Config{})
			if err == nil {
				err = db.WaitForCompactions()
			}
			return db, err
		})
		return
	}
	dir := filepath.Join(t.TempDir(), "db")
	makeDB(t, dir, "")
	release := dbdestroytest.HoldInChild(t, "TestDestroyRefusesDBOpenInAnotherProcess", destroyHolderEnv, dir)
	before := dbdestroytest.Tree(t, dir)
	err := Destroy(dir, testOptions())
	dbdestroytest.CheckRefused(t, dir, err, before)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("%v does not wrap ErrLocked", err)
	}
	release()
	if err := Destroy(dir, testOptions()); err != nil {
		t.Fatalf("Destroy after the other process closed: %v", err)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("dir left: %v", err)
	}
}

func TestDestroyWALDir(t *testing.T) {
	root := t.TempDir()
	dir, walDir := filepath.Join(root, "db"), filepath.Join(root, "wal")
	makeDB(t, dir, walDir)
	if len(filesOf(t, walDir, fileWAL)) == 0 {
		t.Fatal("no WAL in the WAL dir")
	}
	keep := map[string]string{
		"notes.txt":      "file:n",
		"000001.sst":     "file:t", // only WALs go in a WAL dir
		"CURRENT":        "file:c",
		"LOCK":           "file:",
		"sub":            "dir",
		"sub/000002.log": "file:w",
	}
	for name, what := range keep {
		if c, ok := strings.CutPrefix(what, "file:"); ok {
			dbdestroytest.WriteFile(t, filepath.Join(walDir, name), c)
		}
	}
	o := testOptions()
	o.WALDir = walDir
	if err := Destroy(dir, o); err != nil {
		t.Fatal(err)
	}
	keep["."] = "dir"
	if got := dbdestroytest.Tree(t, walDir); !maps.Equal(got, keep) {
		t.Fatalf("WAL dir after Destroy: %v, want %v", got, keep)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("DB dir left: %v", err)
	}
	// An empty WAL dir is removed with the DB.
	makeDB(t, dir, filepath.Join(root, "wal2"))
	o.WALDir = filepath.Join(root, "wal2")
	if err := Destroy(dir, o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(o.WALDir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("empty WAL dir left: %v", err)
	}
}

// TestDestroyKeepsOthersWALs: Destroy of a directory that does not exist
// (no lock can be taken there), or of one that holds none of the engine's
// files, with a --wal_dir holding another DB's WALs, succeeds and deletes
// none of them, so that DB's unflushed write survives.
func TestDestroyKeepsOthersWALs(t *testing.T) {
	for _, existing := range []bool{false, true} {
		root := t.TempDir()
		dir, walDir, other := filepath.Join(root, "db"), filepath.Join(root, "wal"), filepath.Join(root, "other")
		makeDB(t, dir, walDir)
		if existing {
			dbdestroytest.WriteFile(t, filepath.Join(other, "notes.txt"), "mine")
		}
		before := dbdestroytest.Tree(t, walDir)
		o := testOptions()
		o.WALDir = walDir
		if err := Destroy(other, o); err != nil {
			t.Fatalf("Destroy of another dir (existing %v): %v", existing, err)
		}
		if after := dbdestroytest.Tree(t, walDir); !maps.Equal(before, after) {
			t.Fatalf("WAL dir after destroying another dir (existing %v): %v, was %v", existing, after, before)
		}
		db := mustOpen(t, dir, o)
		if v, ok := getString(t, db, "b"); !ok || v != "2" {
			t.Fatalf("unflushed write b = %q, %v; want 2 (existing %v)", v, ok, existing)
		}
		db.Close()
	}
}

// TestDestroyWALDirIsAFile: a --wal_dir naming a regular file is an error
// and nothing anywhere is deleted or replaced.
func TestDestroyWALDirIsAFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	makeDB(t, dir, "")
	dbdestroytest.CheckWALDirIsAFile(t, dir, func(walDir string) error {
		o := testOptions()
		o.WALDir = walDir
		return Destroy(dir, o)
	})
}

func TestDestroyDBPathIsAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "CURRENT")
	dbdestroytest.WriteFile(t, path, "not a DB")
	if err := Destroy(path, testOptions()); err == nil {
		t.Fatal("Destroy of a regular file succeeded")
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "not a DB" {
		t.Fatalf("file changed: %q %v", b, err)
	}
}

// TestDestroyRefusesForeignDatabase: RocksDB and Pebble name their files as
// this engine does, so Destroy refuses their directories by Open's rules
// and deletes nothing; a leftover IDENTITY or marker beside this engine's
// own database does not stop it.
func TestDestroyRefusesForeignDatabase(t *testing.T) {
	pebbleDir := t.TempDir()
	for _, n := range []string{lockName, "marker.format-version.000011.024", "MANIFEST-000001", "000002.log"} {
		os.WriteFile(filepath.Join(pebbleDir, n), []byte("x"), 0o644)
	}
	rocksDir := foreignManifestDir(t)
	os.WriteFile(filepath.Join(rocksDir, "000005.sst"), []byte("x"), 0o644)
	for dir, want := range map[string]string{
		pebbleDir: "holds a Pebble database (marker.format-version.000011.024 is Pebble's); open it with --engine=pebble",
		rocksDir:  "holds a RocksDB database (MANIFEST-000001 is RocksDB's format",
	} {
		before := listing(t, dir)
		err := Destroy(dir, testOptions())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Destroy(%s): %v, want %q", dir, err, want)
		}
		if after := listing(t, dir); !maps.Equal(before, after) {
			t.Errorf("Destroy(%s) changed the directory: %v -> %v", dir, before, after)
		}
	}

	own := t.TempDir()
	db := mustOpen(t, own, testOptions())
	put(t, db, "a", "b")
	db.Close()
	for _, n := range []string{"IDENTITY", "marker.format-version.000011.024"} {
		os.WriteFile(filepath.Join(own, n), nil, 0o644)
	}
	if err := Destroy(own, testOptions()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(own, currentName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("CURRENT left: %v", err)
	}
}
