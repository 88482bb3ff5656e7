package dbbench_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
	"github.com/godbbench/godbbench/internal/tracefmt"
)

// traceCounts counts the records of each type in the trace at path.
func traceCounts(t *testing.T, path string) map[tracefmt.Type]int {
	t.Helper()
	n := map[tracefmt.Type]int{}
	dbbench.EachTraceRecord(t, path, func(_ int, rec tracefmt.Record) { n[rec.Type]++ })
	return n
}

// TestTraceReplayRebuildsDB records a fill on every engine, replays the
// trace into an empty DB (single-threaded and with four replay
// goroutines) and verifies the replayed DB against the filled one.
func TestTraceReplayRebuildsDB(t *testing.T) {
	for _, eng := range oracleEngines() {
		dir := t.TempDir()
		trace := filepath.Join(dir, "fill.trace")
		filled := filepath.Join(dir, "filled")
		common := []string{"--engine=" + eng, "--num=400", "--seed=3", "--batch_size=4"}
		code, stdout, stderr := runMain(t, append(common, "--db="+filled, "--benchmarks=fillrandom,readrandom,fillseq", "--trace_file="+trace)...)
		if code != 0 {
			t.Fatalf("%s: fill exited %d\n%s", eng, code, stderr)
		}
		if want := "Tracing the workload to: [" + trace + "]"; strings.Count(stdout, want) != 3 {
			t.Fatalf("%s: want %q once per benchmark in\n%s", eng, want, stdout)
		}
		// The file holds the last benchmark's trace: fillseq's 100 batches of 4.
		if got := traceCounts(t, trace); got[tracefmt.TypeWrite] != 100 || len(got) != 1 {
			t.Fatalf("%s: trace of fillseq holds %v, want 100 writes", eng, got)
		}
		for _, threads := range []string{"1", "4"} {
			replayed := filepath.Join(dir, "replayed"+threads)
			code, stdout, stderr = runMain(t, append(common, "--db="+replayed, "--benchmarks=replay,verify",
				"--trace_file="+trace, "--trace_replay_threads="+threads, "--trace_replay_fast_forward=1000", "--truth_db="+filled)...)
			if code != 0 || !strings.Contains(stdout, "Replay completed from trace_file: "+trace) {
				t.Fatalf("%s: replay with %s threads exited %d\nstdout:\n%s\nstderr:\n%s", eng, threads, code, stdout, stderr)
			}
		}
	}
}

// TestReplayRefusals: replay's refusals and failures in db_bench's words.
func TestReplayRefusals(t *testing.T) {
	dir := t.TempDir()
	db := "--db=" + filepath.Join(dir, "db")
	garbage := filepath.Join(dir, "garbage")
	if err := os.WriteFile(garbage, []byte("not a trace file at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--benchmarks=replay"}, 1, "Please set --trace_file to be replayed from\n"},
		{[]string{"--benchmarks=replay", "--threads=2", "--trace_file=x"}, 1, "Multi-threaded replay is not yet supported\n"},
		{[]string{"--benchmarks=replay", "--trace_file=" + filepath.Join(dir, "missing")}, 1,
			"Encountered an error creating a TraceReader from the trace file. Error: IO error: No such file or directory: While open a file for random read: " + filepath.Join(dir, "missing") + ": No such file or directory\n"},
		{[]string{"--benchmarks=replay", "--trace_file=" + garbage}, 0, "Replay failed. Error: Result incomplete: Not prepared!\n"},
		{[]string{"--benchmarks=replay", "--trace_file=" + garbage, "--trace_replay_fast_forward=0"}, 0, "Replay failed. Error: Invalid argument: Wrong fast forward speed!\n"},
	} {
		code, _, stderr := runMain(t, append([]string{db}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

// TestOracleTraceCrossReplay: a trace C++ db_bench records replays here,
// and one recorded here replays in C++ db_bench, each leaving the DB a
// fillrandom of the same seed leaves (the key and value streams are
// C++'s, bit for bit). C++ db_bench 7.8.3's replay needs
// --num_column_families > 1 (with one family it fails an assertion on its
// empty handle list), which leaves the default family as the first.
func TestOracleTraceCrossReplay(t *testing.T) {
	requireOracle(t)
	if _, err := exec.LookPath("ldb"); err != nil {
		t.Skip("RocksDB's ldb (Debian rocksdb-tools, beside db_bench) is not on PATH; cross replay skipped")
	}
	dir := t.TempDir()
	fill := []string{"--benchmarks=fillrandom", "--num=500", "--seed=9", "--value_size=50"}

	// C++ records, we replay and verify against our own fill.
	cxxTrace := filepath.Join(dir, "cxx.trace")
	runOracleIn(t, filepath.Join(dir, "cxxdb"), append(fill, "--trace_file="+cxxTrace))
	for _, eng := range oracleEngines() {
		truth := filepath.Join(dir, "truth-"+eng)
		if code, _, stderr := runMain(t, append(fill, "--engine="+eng, "--db="+truth)...); code != 0 {
			t.Fatalf("%s: fill: %s", eng, stderr)
		}
		code, stdout, stderr := runMain(t, "--engine="+eng, "--db="+filepath.Join(dir, "replayed-"+eng),
			"--benchmarks=replay,verify", "--trace_file="+cxxTrace, "--truth_db="+truth)
		if code != 0 || !strings.Contains(stdout, "Replay completed") {
			t.Fatalf("%s: replay of C++'s trace exited %d\nstdout:\n%s\nstderr:\n%s", eng, code, stdout, stderr)
		}

		// We record, C++ replays; its DB must scan as C++'s own fill.
		ourTrace := filepath.Join(dir, eng+".trace")
		if code, _, stderr := runMain(t, append(fill, "--engine="+eng, "--db="+filepath.Join(dir, "ours-"+eng), "--trace_file="+ourTrace)...); code != 0 {
			t.Fatalf("%s: traced fill: %s", eng, stderr)
		}
		cxxReplayed := filepath.Join(dir, "cxx-replayed-"+eng)
		out := runOracleIn(t, cxxReplayed, []string{"--benchmarks=replay", "--num_column_families=2", "--trace_file=" + ourTrace})
		if !strings.Contains(out, "Replay completed from trace_file: "+ourTrace) {
			t.Fatalf("%s: C++ replay of our trace:\n%s", eng, out)
		}
		if got, want := ldbScan(t, cxxReplayed), ldbScan(t, filepath.Join(dir, "cxxdb")); !bytes.Equal(got, want) || len(want) == 0 {
			t.Fatalf("%s: C++ DB replayed from our trace scans %d bytes, C++'s fill %d; they differ", eng, len(got), len(want))
		}
	}
}

// ldbScan is RocksDB's ldb scan of the default column family in hex.
func ldbScan(t *testing.T, db string) []byte {
	t.Helper()
	out, err := exec.Command("ldb", "--db="+db, "scan", "--hex").CombinedOutput()
	if err != nil {
		t.Fatalf("ldb scan %s: %v\n%s", db, err, out)
	}
	return out
}

// TestTraceReplayRangeDeletes: a fill with range tombstones is recorded
// (DeleteRange entries in its batches) and replays into a DB equal to the
// filled one, on every engine with range deletions.
func TestTraceReplayRangeDeletes(t *testing.T) {
	for _, eng := range oracleEngines() {
		dir := t.TempDir()
		trace, filled := filepath.Join(dir, "fill.trace"), filepath.Join(dir, "filled")
		common := []string{"--engine=" + eng, "--num=2000", "--seed=3"}
		code, _, stderr := runMain(t, append(common, "--db="+filled, "--benchmarks=fillrandom", "--trace_file="+trace,
			"--writes_per_range_tombstone=10", "--range_tombstone_width=20", "--max_num_range_tombstones=50")...)
		if code != 0 {
			if strings.Contains(stderr, "has no range deletions") {
				t.Logf("%s refuses range deletions; skipped", eng)
				continue
			}
			t.Fatalf("%s: fill exited %d\n%s", eng, code, stderr)
		}
		f, err := os.Open(trace)
		if err != nil {
			t.Fatal(err)
		}
		r, err := tracefmt.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		ranges := 0
		count := func(e *tracefmt.Entry) error {
			if e.Kind == tracefmt.EntryDeleteRange {
				ranges++
			}
			return nil
		}
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if rec.Type == tracefmt.TypeWrite {
				batch, err := tracefmt.DecodeWrite(r.Version(), rec.Payload)
				if err == nil {
					err = tracefmt.BatchEntries(batch, count)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		f.Close()
		if ranges != 50 {
			t.Fatalf("%s: %d range deletions in the trace, want 50", eng, ranges)
		}
		code, stdout, stderr := runMain(t, append(common, "--db="+filepath.Join(dir, "replayed"), "--benchmarks=replay,verify",
			"--trace_file="+trace, "--truth_db="+filled)...)
		if code != 0 || !strings.Contains(stdout, "Replay completed") {
			t.Fatalf("%s: replay exited %d\nstdout:\n%s\nstderr:\n%s", eng, code, stdout, stderr)
		}
	}
}

// TestTraceRecordsMultiGetsAndTransactions: multireadrandom's batches are
// one MultiGet record each, and randomtransaction's reads and commits are
// recorded, on every engine, as RocksDB's tracer records them.
func TestTraceRecordsMultiGetsAndTransactions(t *testing.T) {
	for _, eng := range oracleEngines() {
		dir := t.TempDir()
		trace := filepath.Join(dir, "t.trace")
		common := []string{"--engine=" + eng, "--num=200", "--db=" + filepath.Join(dir, "db"), "--trace_file=" + trace}
		if code, _, stderr := runMain(t, append(common, "--benchmarks=fillseq,multireadrandom", "--batch_size=8", "--reads=80")...); code != 0 {
			t.Fatalf("%s: multireadrandom exited %d\n%s", eng, code, stderr)
		}
		if got := traceCounts(t, trace); got[tracefmt.TypeMultiGet] != 10 || len(got) != 1 {
			t.Fatalf("%s: trace of multireadrandom holds %v, want 10 multigets", eng, got)
		}
		if code, _, stderr := runMain(t, append(common, "--benchmarks=randomtransaction", "--use_existing_db=1", "--transaction_db=1")...); code != 0 {
			t.Fatalf("%s: randomtransaction exited %d\n%s", eng, code, stderr)
		}
		// 200 transactions of two sets: a read of each set, and a write
		// per commit (db_bench rolls one transaction in 20 back).
		got := traceCounts(t, trace)
		if got[tracefmt.TypeGet] != 400 || got[tracefmt.TypeWrite] == 0 || got[tracefmt.TypeWrite] > 200 {
			t.Fatalf("%s: trace of randomtransaction holds %v, want 400 gets and 1..200 writes", eng, got)
		}
	}
}
