package dbbench_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
)

// multiDBLists spread fills, deletes, reads and seeks over three
// databases. A key looked up in another database than the one it was
// written to (or deleted from) is not found, so equal found counts say
// every operation went to the database C++ db_bench sends it to and
// drew its random numbers in C++'s order.
var multiDBLists = [][]string{
	{"--benchmarks=fillrandom,seekrandom,readrandom,deleterandom,readrandom,readseq", "--num=3000", "--seed=1"},
	{"--benchmarks=fillseq,deleteseq,readrandom,readseq,readreverse", "--num=3000", "--seed=1", "--deletes=1000"},
	{"--benchmarks=fillseq,readwhilewriting,deleterandom,readrandom", "--num=3000", "--seed=1"},
	{"--benchmarks=fillbatch,deleterandom,multireadrandom,newiterator", "--num=3000", "--seed=2", "--batch_size=7"},
	{"--benchmarks=fillrandom,deleterandom,readrandom,seekrandom", "--num=2000", "--seed=3",
		"--use_tailing_iterator", "--seek_nexts=3", "--threads=2"},
	{"--benchmarks=fillrandom,updaterandom,readrandomwriterandom,xorupdaterandom,appendrandom,deleterandom,readrandom",
		"--num=3000", "--seed=5"},
	{"--benchmarks=mergerandom,readrandommergerandom,readrandom", "--num=3000", "--seed=6",
		"--merge_operator=uint64add", "--value_size=8"},
	{"--benchmarks=fillrandom,mixgraph,randomwithverify,readrandomfast,readrandom", "--num=3000", "--reads=3000",
		"--seed=7", "--mix_get_ratio=0.7", "--mix_put_ratio=0.2", "--mix_seek_ratio=0.1", "--numdistinct=500"},
	{"--benchmarks=fillseekseq,randomreplacekeys,readrandom", "--num=2000", "--seed=8", "--numdistinct=100"},
}

func TestOracleMultiDBCounts(t *testing.T) {
	requireOracle(t)
	for _, engine := range oracleEngines() {
		for i, args := range multiDBLists {
			compareCounts(t, engine, i, append([]string{"--compression_type=none", "--num_multi_db=3"}, args...))
		}
	}
}

// TestOracleMultiDBColumnFamilies: on the rocksdb engine each of the
// databases has --num_column_families families, and every operation goes
// to the family of its key in the database it selected, as in C++. C++
// db_bench 7.8.3 closes such databases without their family handles and
// aborts on RocksDB's assertion (at exit, or at the first fresh-DB
// benchmark, so the list fills with overwrite); its result lines come
// before the abort. Here the databases close cleanly.
func TestOracleMultiDBColumnFamilies(t *testing.T) {
	requireRocksDBOracle(t)
	args := []string{"--compression_type=none", "--num_multi_db=2", "--num_column_families=3",
		"--benchmarks=overwrite,readrandom,deleterandom,readrandom,mergerandom", "--num=3000", "--seed=4",
		"--merge_operator=put"}
	cmd := exec.Command(oracleBinary, append([]string{"--db=" + filepath.Join(t.TempDir(), "db")}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil && !strings.Contains(errb.String(), "Assertion `last_ref' failed") {
		t.Fatalf("C++ db_bench %v: %v\n%s", args, err, errb.String())
	}
	want := summarize(out.String())
	got := summarize(runOurs(t, "rocksdb", args))
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) != 5 {
		t.Errorf("--- ours\n%s\n--- C++ db_bench\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMultiDBLayout: the databases are the numbered subdirectories of
// --db, and --db holds nothing else, as with C++ db_bench; a --wal_dir
// has the same numbered subdirectories.
func TestMultiDBLayout(t *testing.T) {
	for _, engine := range oracleEngines() {
		dir := filepath.Join(t.TempDir(), "db")
		walDir := filepath.Join(t.TempDir(), "wal")
		var out, errb bytes.Buffer
		args := []string{"--engine=" + engine, "--db=" + dir, "--wal_dir=" + walDir, "--num_multi_db=3",
			"--benchmarks=fillseq", "--num=100"}
		if code := dbbench.Main(args, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d\n%s", engine, code, errb.String())
		}
		if got := dirNames(t, dir); !slices.Equal(got, []string{"0", "1", "2"}) {
			t.Errorf("%s: --db holds %v, want the databases 0, 1 and 2", engine, got)
		}
		if got := dirNames(t, walDir); !slices.Equal(got, []string{"0", "1", "2"}) {
			t.Errorf("%s: --wal_dir holds %v, want the WAL directories 0, 1 and 2", engine, got)
		}
		for _, sub := range []string{"0", "1", "2"} {
			if len(dirNames(t, filepath.Join(dir, sub))) == 0 {
				t.Errorf("%s: database %s is empty", engine, sub)
			}
		}
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestMultiDBPrintoutsPerDatabase: the property printouts and
// waitforcompaction's lines cover every database in order, each
// printout headed by "==== DB: <path> ===" as in C++.
func TestMultiDBPrintoutsPerDatabase(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	text := runNative(t, dir, "--num_multi_db=2", "--benchmarks=fillseq,stats,waitforcompaction", "--num=100")
	last := -1
	for _, want := range []string{
		"\n==== DB: " + dir + "/0 ===\n", "\n==== DB: " + dir + "/1 ===\n",
		"waitforcompaction(" + dir + "/0): finished", "waitforcompaction(" + dir + "/1): started",
	} {
		i := strings.Index(text, want)
		if i <= last {
			t.Fatalf("%q missing or out of order in:\n%s", want, text)
		}
		last = i
	}
}

// TestMultiDBRefusesOneDBBenchmark: a benchmark that runs on one database
// here stops a run with several, naming itself and the flag, instead of
// measuring the first database alone.
func TestMultiDBRefusesOneDBBenchmark(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"--db=" + filepath.Join(t.TempDir(), "db"), "--num_multi_db=2",
		"--benchmarks=fillseq,timeseries", "--num=100"}
	if code := dbbench.Main(args, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, errb.String())
	}
	if msg := errb.String(); !strings.Contains(msg, "timeseries") || !strings.Contains(msg, "--num_multi_db") {
		t.Errorf("stderr does not name the benchmark and the flag:\n%s", msg)
	}
	if !strings.Contains(out.String(), "fillseq") {
		t.Errorf("fillseq did not run before the refusal:\n%s", out.String())
	}
}

// TestOneMultiDBIsOneDB: db_bench opens one database at --db itself for
// --num_multi_db of 0 or 1.
func TestOneMultiDBIsOneDB(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	runNative(t, dir, "--num_multi_db=1", "--benchmarks=fillseq", "--num=100")
	if slices.Contains(dirNames(t, dir), "0") {
		t.Errorf("--num_multi_db=1 made a subdirectory: %v", dirNames(t, dir))
	}
}

// runNative runs our db_bench on the native engine at dir and returns its
// stdout, failing t unless it exits 0.
func runNative(t *testing.T, dir string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := dbbench.Main(append([]string{"--db=" + dir}, args...), &out, &errb); code != 0 {
		t.Fatalf("%v: exit %d\n%s", args, code, errb.String())
	}
	return out.String()
}
