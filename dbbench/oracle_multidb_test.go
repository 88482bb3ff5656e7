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
		"--benchmarks=fillseq,nextwithkey", "--num=100"}
	if code := dbbench.Main(args, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, errb.String())
	}
	if msg := errb.String(); !strings.Contains(msg, "nextwithkey") || !strings.Contains(msg, "--num_multi_db") {
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

// intervalWrites returns, from a run's output, the N of "Cumulative
// writes: N writes" of each interval dump of --stats_per_interval and the
// benchmark names of its result lines, in the order of out.
func intervalWrites(out string) []string {
	var seq []string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		switch {
		case strings.HasPrefix(l, "Cumulative writes:") && len(f) > 2:
			seq = append(seq, f[2])
		case len(f) > 2 && f[1] == ":" && !strings.Contains(l, "..."):
			seq = append(seq, f[0])
		}
	}
	return seq
}

// TestOracleMultiDBIntervalStats: with several databases, the rocksdb.stats
// that --stats_per_interval prints after each interval line is that of
// the database of the operation that reached the interval, as C++ db_bench
// passes it to FinishedOps; seekrandom (which reports against db_bench's
// db_, none with several databases) and the CPU benchmarks print none. The
// cumulative write counts of the dumps tell the databases apart.
func TestOracleMultiDBIntervalStats(t *testing.T) {
	requireOracle(t)
	args := []string{"--benchmarks=fillrandom,readrandom,seekrandom,readseq,deleterandom,overwrite,mergerandom,newiterator,crc32c",
		"--merge_operator=put", "--num=300", "--seed=1", "--stats_interval=50", "--stats_per_interval=1", "--num_multi_db=2"}
	compareIntervalWrites(t, args, 20)
}

// compareIntervalWrites runs args on C++ db_bench and on every engine and
// compares their intervalWrites: the dumps (stderr) in order, then the
// benchmarks run (stdout). C++ must print at least least of them.
func compareIntervalWrites(t *testing.T, args []string, least int) {
	t.Helper()
	oracle := runOracleFull(t, args)
	want := intervalWrites(oracle.stderr + oracle.stdout)
	if len(want) < least {
		t.Fatalf("C++ db_bench printed %d interval dumps and results: %v", len(want), want)
	}
	for _, eng := range oracleEngines() {
		run := runOursFull(t, eng, args)
		if got := intervalWrites(run.stderr + run.stdout); !slices.Equal(got, want) {
			t.Errorf("%s: interval dumps differ:\nours %v\nC++  %v", eng, got, want)
		}
	}
}

// TestOracleMultiDBTimeSeries: timeseries with one thread, its writer
// alone, spreads over several databases as C++ db_bench's (the interval
// dumps of the readseq after it show each database's writes) and, like
// C++'s, dumps no database's stats at its own intervals; with readers,
// which C++ asserts to work on one database, it stops the run.
func TestOracleMultiDBTimeSeries(t *testing.T) {
	requireOracle(t)
	args := []string{"--compression_type=none", "--num_multi_db=2", "--benchmarks=timeseries,readseq", "--num=1000",
		"--seed=3", "--key_id_range=500", "--stats_interval=100", "--stats_per_interval=1"}
	compareIntervalWrites(t, args, 10)
	var out, errb bytes.Buffer
	refused := []string{"--db=" + filepath.Join(t.TempDir(), "db"), "--num_multi_db=2", "--threads=2",
		"--benchmarks=timeseries", "--num=100"}
	if code := dbbench.Main(refused, &out, &errb); code != 1 || !strings.Contains(errb.String(), "db_.db != nullptr") {
		t.Errorf("timeseries with readers and several databases: exit %d\n%s", code, errb.String())
	}
}

// TestOracleMultiDBReplay: with several databases replay replays nothing
// and reads no trace, as C++ db_bench's (its result line, one operation,
// is C++'s); tracing another benchmark, which C++ starts on a database it
// does not have, stops the run.
func TestOracleMultiDBReplay(t *testing.T) {
	requireOracle(t)
	trace := filepath.Join(t.TempDir(), "missing-trace")
	for _, engine := range oracleEngines() {
		compareCounts(t, engine, 0, []string{"--num_multi_db=2", "--benchmarks=replay", "--num=100", "--trace_file=" + trace})
	}
	var out, errb bytes.Buffer
	args := []string{"--db=" + filepath.Join(t.TempDir(), "db"), "--num_multi_db=2", "--trace_file=" + trace,
		"--benchmarks=fillseq", "--num=100"}
	if code := dbbench.Main(args, &out, &errb); code != 1 || !strings.Contains(errb.String(), "--trace_file records one database") {
		t.Errorf("fillseq traced with several databases: exit %d\n%s", code, errb.String())
	}
	if _, err := os.Stat(trace); err == nil {
		t.Errorf("a trace was written at %s", trace)
	}
}
