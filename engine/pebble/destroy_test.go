package pebble

import (
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/dbdestroy"
	"github.com/godbbench/godbbench/internal/dbdestroy/dbdestroytest"
	"github.com/godbbench/godbbench/lsm"
	"github.com/godbbench/godbbench/options"
)

// makePebbleDB leaves a closed Pebble DB with tables, WALs, markers and an
// OPTIONS file in dir (WALs in walDir when set).
func makePebbleDB(t *testing.T, dir, walDir string) *options.Options {
	t.Helper()
	o := testOptions()
	o.WALDir = walDir
	db, err := Opener{}.Open(dir, o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if err := db.Put([]byte{byte(i)}, make([]byte, 1000), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Put([]byte("last"), []byte("v"), nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return o
}

// openQuiet opens the DB in dir and waits until no compaction runs, so its
// files stay as they are while it is held open.
func openQuiet(dir string, o *options.Options) (engine.DB, error) {
	db, err := Opener{}.Open(dir, o, io.Discard)
	if err != nil {
		return nil, err
	}
	if err := db.WaitForCompactions(); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func TestPebbleFileNames(t *testing.T) {
	for name, want := range map[string]bool{
		"LOCK": true, "CURRENT": true, "MANIFEST-000001": true, "OPTIONS-000003": true,
		"000004.sst": true, "000005.blob": true, "000002.log": true, "000002-001.log": true,
		"CURRENT.000007.dbtmp": true, "temporary.000008.dbtmp": true,
		"marker.format-version.000011.024": true, "marker.manifest.000001.MANIFEST-000001": true,
		"LOG": true, "LOG.old.1": false, "notes.txt": false, "MANIFEST-x": false, "000004.sst.bak": false,
		"foo.log": false, "000002-x.log": false, "marker.manifest.x.MANIFEST-1": false,
		"marker.manifest.000001": false, "x.dbtmp": false, "CURRENT.x.dbtmp": false, "IDENTITY": false,
	} {
		if got := isPebbleFileName(name); got != want {
			t.Errorf("isPebbleFileName(%q) = %v, want %v", name, got, want)
		}
	}
	for name, want := range map[string]bool{"000002.log": true, "000002-001.log": true, "000004.sst": false, "LOCK": false} {
		if got := isPebbleWALName(name); got != want {
			t.Errorf("isPebbleWALName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestDestroyKeepsUnrelatedFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	o := makePebbleDB(t, dir, "")
	keep := map[string]string{
		"notes.txt":           "mine",
		"000004.sst.bak":      "backup",
		"sub/000001.sst":      "nested",
		"000099.sst/keep.txt": "a directory with a table's name",
	}
	for name, c := range keep {
		dbdestroytest.WriteFile(t, filepath.Join(dir, name), c)
	}
	outside := filepath.Join(t.TempDir(), "outside.txt")
	dbdestroytest.WriteFile(t, outside, "precious")
	if err := os.Symlink(outside, filepath.Join(dir, "000123.sst")); err != nil {
		t.Fatal(err)
	}
	if err := Destroy(dir, o); err != nil {
		t.Fatal(err)
	}
	got := dbdestroytest.Tree(t, dir)
	want := map[string]string{".": "dir", "sub": "dir", "000099.sst": "dir"}
	for name, c := range keep {
		want[name] = "file:" + c
	}
	if len(got) != len(want) {
		t.Errorf("after Destroy: %v", got)
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: %q, want %q", p, got[p], w)
		}
	}
	if b, err := os.ReadFile(outside); err != nil || string(b) != "precious" {
		t.Fatalf("link target changed: %q %v", b, err)
	}
}

func TestDestroyEmptyDirRemoved(t *testing.T) {
	root := t.TempDir()
	dir, walDir := filepath.Join(root, "db"), filepath.Join(root, "wal")
	o := makePebbleDB(t, dir, walDir)
	dbdestroytest.WriteFile(t, filepath.Join(walDir, "000001.sst"), "not a WAL")
	if err := Destroy(dir, o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("DB dir left: %v", err)
	}
	want := map[string]string{".": "dir", "000001.sst": "file:not a WAL"}
	got := dbdestroytest.Tree(t, walDir)
	if len(got) != len(want) || got["000001.sst"] != want["000001.sst"] {
		t.Fatalf("WAL dir after Destroy: %v", got)
	}
	if err := Destroy(dir, o); err != nil {
		t.Fatalf("Destroy of a missing DB: %v", err)
	}
}

// TestDestroyWALDirIsAFile: a --wal_dir naming a regular file is an error
// and nothing anywhere is deleted or replaced.
func TestDestroyWALDirIsAFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	makePebbleDB(t, dir, "")
	dbdestroytest.CheckWALDirIsAFile(t, dir, func(walDir string) error {
		o := testOptions()
		o.WALDir = walDir
		return Destroy(dir, o)
	})
}

func TestDestroyRefusesDBOpenInProcess(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	o := makePebbleDB(t, dir, "")
	db, err := openQuiet(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	before := dbdestroytest.StableTree(t, dir)
	dbdestroytest.CheckRefused(t, dir, Destroy(dir, o), before)
	if found, err := db.Get([]byte("last"), func([]byte) {}); !found || err != nil {
		t.Fatalf("open DB lost a key: %v %v", found, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := Destroy(dir, o); err != nil {
		t.Fatalf("Destroy after Close: %v", err)
	}
}

const pebbleHolderEnv = "PEBBLE_DESTROY_TEST_HOLDER"

// TestDestroyRefusesDBOpenInAnotherProcess: a child process holds the DB
// open; Destroy must refuse and delete nothing.
func TestDestroyRefusesDBOpenInAnotherProcess(t *testing.T) {
	if dir := os.Getenv(pebbleHolderEnv); dir != "" {
		dbdestroytest.ServeHold(func() (io.Closer, error) { return openQuiet(dir, testOptions()) })
		return
	}
	dir := filepath.Join(t.TempDir(), "db")
	o := makePebbleDB(t, dir, "")
	release := dbdestroytest.HoldInChild(t, "TestDestroyRefusesDBOpenInAnotherProcess", pebbleHolderEnv, dir)
	before := dbdestroytest.StableTree(t, dir)
	dbdestroytest.CheckRefused(t, dir, Destroy(dir, o), before)
	release()
	if err := Destroy(dir, o); err != nil {
		t.Fatalf("Destroy after the other process closed: %v", err)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("dir left: %v", err)
	}
}

// TestNativeLockHoldsOffPebble: a directory whose LOCK the native engine
// holds (flock and an open-file-description record lock) is seen as held
// by the pebble engine's Destroy and Open, which take POSIX record locks:
// both are refused, and the native engine's files are left.
func TestNativeLockHoldsOffPebble(t *testing.T) {
	dir := t.TempDir()
	lock, err := lsm.DefaultFS.Lock(filepath.Join(dir, dbdestroy.LockName))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	dbdestroytest.WriteFile(t, filepath.Join(dir, "000007.log"), "the native engine's WAL")
	before := dbdestroytest.Tree(t, dir)
	if err := Destroy(dir, nil); err == nil || !strings.Contains(err.Error(), "Resource temporarily unavailable") {
		t.Fatalf("Destroy beside the native engine's lock: %v", err)
	}
	if db, err := (Opener{}).Open(dir, testOptions(), io.Discard); err == nil {
		db.Close()
		t.Fatal("Open beside the native engine's lock succeeded")
	}
	if after := dbdestroytest.Tree(t, dir); !maps.Equal(before, after) {
		t.Fatalf("files changed: %v -> %v", before, after)
	}
}

// TestDestroyRefusesRocksDBFormat: Destroy of a directory holding a
// RocksDB-format database (CURRENT and a MANIFEST, no Pebble marker; with
// IDENTITY: RocksDB's) says whose it is and deletes nothing.
func TestDestroyRefusesRocksDBFormat(t *testing.T) {
	for name, files := range map[string][]string{
		"native":             {"CURRENT", "MANIFEST-000003", "000004.log", "000005.sst", "LOCK"},
		"rocksdb":            {"CURRENT", "IDENTITY", "MANIFEST-000005", "000004.log"},
		"rocksdb no CURRENT": {"IDENTITY", "000009.sst"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range files {
				dbdestroytest.WriteFile(t, filepath.Join(dir, f), "x")
			}
			before := dbdestroytest.Tree(t, dir)
			err := Destroy(dir, nil)
			if err == nil || !strings.HasPrefix(err.Error(), "Invalid argument: "+dir+": a RocksDB-format database") {
				t.Fatalf("Destroy: %v", err)
			}
			if after := dbdestroytest.Tree(t, dir); !maps.Equal(before, after) {
				t.Fatalf("files changed: %v -> %v", before, after)
			}
		})
	}
}

// TestVerifyChecksumMissingTable: a live table deleted from under the open
// DB (Pebble still reads it through its open descriptor) fails
// VerifyChecksum with a Corruption error naming it, where a table merely
// compacted away since the listing is passed over.
func TestVerifyChecksumMissingTable(t *testing.T) {
	dir := t.TempDir()
	makePebbleDB(t, dir, "")
	db, err := openQuiet(dir, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := db.(engine.Maintainer)
	if err := m.VerifyChecksum(); err != nil {
		t.Fatalf("VerifyChecksum of a sound DB: %v", err)
	}
	live, err := m.LiveFiles()
	if err != nil {
		t.Fatal(err)
	}
	table := ""
	for _, f := range live {
		if strings.HasSuffix(f.Name, ".sst") {
			table = filepath.Join(dir, filepath.Base(f.Name))
			break
		}
	}
	if table == "" {
		t.Fatalf("no live table among %v", live)
	}
	if err := os.Remove(table); err != nil {
		t.Fatal(err)
	}
	err = m.VerifyChecksum()
	if err == nil || !strings.HasPrefix(err.Error(), "Corruption: ") || !strings.Contains(err.Error(), filepath.Base(table)+": a live table is missing") {
		t.Fatalf("VerifyChecksum with a live table deleted: %v", err)
	}
}

// TestInfoLogSymlinkNotFollowed: a LOG that is a symbolic link is not
// written through at open: its target keeps its bytes.
func TestInfoLogSymlinkNotFollowed(t *testing.T) {
	dir, target := filepath.Join(t.TempDir(), "db"), filepath.Join(t.TempDir(), "mine.txt")
	dbdestroytest.WriteFile(t, target, "mine")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, infoLogName)); err != nil {
		t.Fatal(err)
	}
	db, err := (Opener{}).Open(dir, testOptions(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "mine" {
		t.Fatalf("LOG's target after an open: %q, %v", b, err)
	}
}
