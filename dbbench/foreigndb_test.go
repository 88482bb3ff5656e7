package dbbench_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// dirState lists a directory's file names and sizes.
func dirState(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]int64{}
	for _, e := range ents {
		if fi, err := e.Info(); err == nil {
			m[e.Name()] = fi.Size()
		}
	}
	return m
}

// rocksdbDir returns a directory holding a RocksDB database of 100 keys
// made by C++ db_bench, or, where it is not installed (said in the log),
// files named as RocksDB names them.
func rocksdbDir(t *testing.T) string {
	t.Helper()
	if bin, err := exec.LookPath("db_bench"); err == nil {
		dir := filepath.Join(t.TempDir(), "rocksdb")
		if out, err := exec.Command(bin, "--benchmarks=fillseq", "--num=100", "--db="+dir).CombinedOutput(); err != nil {
			t.Fatalf("C++ db_bench: %v: %s", err, out)
		}
		return dir
	}
	t.Log("C++ db_bench not installed: a RocksDB directory is stood in for by its file names")
	dir := t.TempDir()
	for _, name := range []string{"CURRENT", "IDENTITY", "MANIFEST-000005", "000004.log"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestNativeRefusesForeignDB: the native engine asked to open, or to
// refill, a database Pebble or RocksDB created says so (exit 1) and leaves
// every file as it was, instead of calling its MANIFEST or WAL corrupt, or
// deleting the files it names and leaving the others.
func TestNativeRefusesForeignDB(t *testing.T) {
	dbs := map[string]string{}
	pebbleDir := filepath.Join(t.TempDir(), "pebble")
	if code, _, errs := runMain(t, "--engine=pebble", "--db="+pebbleDir, "--num=100", "--seed=1", "--benchmarks=fillseq"); code != 0 {
		t.Fatalf("pebble fillseq: %s", errs)
	}
	dbs["Pebble"] = pebbleDir
	dbs["RocksDB"] = rocksdbDir(t)
	for creator, dir := range dbs {
		before := dirState(t, dir)
		// A read of the existing DB, and a fill, which would destroy it
		// first: both refused, nothing touched.
		for _, args := range [][]string{{"--use_existing_db=1", "--benchmarks=readseq"}, {"--benchmarks=fillseq"}} {
			code, _, errs := runMain(t, append([]string{"--engine=native", "--db=" + dir, "--num=100", "--seed=1"}, args...)...)
			want := "open error: Invalid argument: " + dir + " holds a " + creator + " database"
			if code != 1 || !strings.Contains(errs, want) || !strings.Contains(errs, "open it with --engine="+strings.ToLower(creator)+"\n") {
				t.Errorf("%s %v: exit %d, stderr %q", creator, args, code, errs)
			}
			if after := dirState(t, dir); !reflect.DeepEqual(before, after) {
				t.Errorf("%s %v: files changed: %v -> %v", creator, args, before, after)
			}
		}
	}
}

// TestPebbleRefusesForeignDB: the pebble engine asked to open, or to
// refill, a database the native engine or RocksDB created says so (exit 1)
// and leaves every file as it was: Pebble's file names are mostly theirs,
// so its Destroy would have deleted most of such a database.
func TestPebbleRefusesForeignDB(t *testing.T) {
	dbs := map[string]string{}
	nativeDir := filepath.Join(t.TempDir(), "native")
	if code, _, errs := runMain(t, "--engine=native", "--db="+nativeDir, "--num=100", "--seed=1", "--benchmarks=fillseq"); code != 0 {
		t.Fatalf("native fillseq: %s", errs)
	}
	dbs["RocksDB or the native engine"] = nativeDir
	dbs["RocksDB"] = rocksdbDir(t)
	for writer, dir := range dbs {
		before := dirState(t, dir)
		for _, args := range [][]string{{"--use_existing_db=1", "--benchmarks=readseq"}, {"--benchmarks=fillseq"}} {
			code, _, errs := runMain(t, append([]string{"--engine=pebble", "--db=" + dir, "--num=100", "--seed=1"}, args...)...)
			want := "open error: Invalid argument: " + dir + ": a RocksDB-format database (CURRENT, no Pebble marker), written by " + writer + "; the pebble engine cannot open it\n"
			if code != 1 || !strings.Contains(errs, want) {
				t.Errorf("%s %v: exit %d, stderr %q, want %q", writer, args, code, errs, want)
			}
			if after := dirState(t, dir); !reflect.DeepEqual(before, after) {
				t.Errorf("%s %v: files changed: %v -> %v", writer, args, before, after)
			}
		}
	}
}
