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

// fillWith returns a directory holding 100 keys written by engine.
func fillWith(t *testing.T, engine string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), engine)
	if code, _, errs := runMain(t, "--engine="+engine, "--db="+dir, "--num=100", "--seed=1", "--benchmarks=fillseq"); code != 0 {
		t.Fatalf("%s fillseq: %s", engine, errs)
	}
	return dir
}

// TestEnginesRefuseForeignDB: an engine asked to open, or to refill, a
// database another engine created says so (exit 1) and leaves every file
// as it was. Without the check the native engine called a foreign
// MANIFEST or WAL corrupt, or deleted the files it names and left the
// others; Pebble's file names are mostly RocksDB's, so its Destroy deleted
// most of a native or RocksDB database.
func TestEnginesRefuseForeignDB(t *testing.T) {
	pebbleDir, nativeDir, rocksDir := fillWith(t, "pebble"), fillWith(t, "native"), rocksdbDir(t)
	notPebble := func(dir, writer string) []string {
		return []string{"open error: Invalid argument: " + dir + ": a RocksDB-format database (CURRENT, no Pebble marker), written by " +
			writer + "; the pebble engine cannot open it\n"}
	}
	cases := []struct {
		engine, dir string
		want        []string // substrings of stderr
	}{
		{"native", pebbleDir, []string{"open error: Invalid argument: " + pebbleDir + " holds a Pebble database", "open it with --engine=pebble\n"}},
		{"native", rocksDir, []string{"open error: Invalid argument: " + rocksDir + " holds a RocksDB database", "open it with --engine=rocksdb\n"}},
		{"pebble", nativeDir, notPebble(nativeDir, "RocksDB or the native engine")},
		{"pebble", rocksDir, notPebble(rocksDir, "RocksDB")},
	}
	for _, c := range cases {
		before := dirState(t, c.dir)
		// A read of the existing DB, and a fill, which would destroy it
		// first: both refused, nothing touched.
		for _, args := range [][]string{{"--use_existing_db=1", "--benchmarks=readseq"}, {"--benchmarks=fillseq"}} {
			code, _, errs := runMain(t, append([]string{"--engine=" + c.engine, "--db=" + c.dir, "--num=100", "--seed=1"}, args...)...)
			ok := code == 1
			for _, w := range c.want {
				ok = ok && strings.Contains(errs, w)
			}
			if !ok {
				t.Errorf("%s on %s %v: exit %d, stderr %q, want %q", c.engine, c.dir, args, code, errs, c.want)
			}
			if after := dirState(t, c.dir); !reflect.DeepEqual(before, after) {
				t.Errorf("%s on %s %v: files changed: %v -> %v", c.engine, c.dir, args, before, after)
			}
		}
	}
}
