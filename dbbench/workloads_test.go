package dbbench_test

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestMixGraphRefusals checks the flag values on which C++ db_bench's
// mixgraph divides by zero: each ends the run with exit 1 and a message
// naming the flag before mixgraph's first operation.
func TestMixGraphRefusals(t *testing.T) {
	for _, c := range []struct {
		flags []string
		words string
	}{
		{[]string{"--mix_get_ratio=0"}, "the ratios must be non-negative with a positive sum"},
		{[]string{"--mix_put_ratio=-1"}, "--mix_put_ratio=-1"},
		{[]string{"--mix_max_scan_len=0"}, "--mix_max_scan_len=0"},
		{[]string{"--mix_max_value_size=0"}, "--mix_max_value_size=0"},
		{[]string{"--sine_mix_rate=1", "--sine_a=0.5"}, "--sine_a=0.5"},
		{[]string{"--keyrange_dist_a=1", "--keyrange_num=1000"}, "--keyrange_num=1000 exceeds --num=100"},
	} {
		args := append([]string{"--engine=native", "--db=" + filepath.Join(t.TempDir(), "db"), "--num=100",
			"--seed=1", "--benchmarks=fillseq,mixgraph"}, c.flags...)
		code, stdout, stderr := runMain(t, args...)
		if code != 1 || !strings.Contains(stderr, c.words) || strings.Contains(stdout, "mixgraph") {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 1 naming %q and no mixgraph line", c.flags, code, stderr, stdout, c.words)
		}
	}
}

// TestMixGraphSineRateThreads runs mixgraph with the sine-wave request
// rate and its noise on two threads (run it with -race): both threads
// replace and retune the shared limiters while the other uses them.
func TestMixGraphSineRateThreads(t *testing.T) {
	code, stdout, stderr := runMain(t, "--engine=native", "--db="+filepath.Join(t.TempDir(), "db"),
		"--num=2000", "--seed=1", "--threads=2", "--benchmarks=fillseq,mixgraph",
		"--mix_get_ratio=0.4", "--mix_put_ratio=0.3", "--mix_seek_ratio=0.3", "--mix_max_scan_len=20",
		"--sine_mix_rate=1", "--sine_a=50000", "--sine_d=100000", "--sine_mix_rate_noise=0.5",
		"--sine_mix_rate_interval_milliseconds=1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "mixgraph     :") || !strings.Contains(stdout, "4000 operations;") || !strings.Contains(stdout, "( Gets:") {
		t.Fatalf("no mixgraph result line of 4000 operations:\n%s", stdout)
	}
}

// TestRandomWithVerifyConcurrentIsConsistent runs randomwithverify on
// four threads over few keys, so that PutMany and DeleteMany batches race
// with GetMany reads of the same keys, on every engine: no GetMany may see
// a batch half applied ("inconsistent values" on stderr).
func TestRandomWithVerifyConcurrentIsConsistent(t *testing.T) {
	for _, eng := range []string{"native", "pebble"} {
		code, stdout, stderr := runMain(t, "--engine="+eng, "--db="+filepath.Join(t.TempDir(), "db"),
			"--num=1000", "--seed=1", "--threads=4", "--numdistinct=20", "--readwritepercent=50",
			"--deletepercent=20", "--benchmarks=randomwithverify")
		if code != 0 || strings.Contains(stderr, "inconsistent values") || !strings.Contains(stdout, "( get:") {
			t.Fatalf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", eng, code, stdout, stderr)
		}
	}
}

// TestTimeSeries runs timeseries' writer beside a reader and a deleting
// reader: the writer's own "timeseries write" line counts its --num
// writes, the merged line the readers' entries, with "(N of M found)";
// what the readers find depends on timing, as in db_bench. Then the
// refusals: keys shorter than the 8-byte id, a zero id range, and
// compaction-filter expiry.
func TestTimeSeries(t *testing.T) {
	code, stdout, stderr := runMain(t, "--engine=native", "--db="+filepath.Join(t.TempDir(), "db"),
		"--num=2000", "--seed=1", "--threads=3", "--key_id_range=20", "--expire_style=delete",
		"--time_range=100", "--benchmarks=timeseries")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "timeseries write :") || !strings.Contains(stdout, " 2000 operations;") ||
		!regexp.MustCompile(`(?m)^timeseries   :.*\(\d+ of \d+ found\)$`).MatchString(stdout) {
		t.Fatalf("want the writer's line of 2000 writes and the readers' found line:\n%s", stdout)
	}
	for _, c := range []struct {
		flag, words string
	}{
		{"--key_size=6", "--key_size=6 is shorter than the 8-byte key id"},
		{"--key_id_range=0", "--key_id_range=0 leaves no key ids"},
		{"--expire_style=compaction_filter", "needs a compaction filter, which engine native does not offer"},
	} {
		code, stdout, stderr := runMain(t, "--engine=native", "--db="+filepath.Join(t.TempDir(), "db"),
			"--num=100", "--seed=1", "--benchmarks=timeseries", c.flag)
		if code != 1 || !strings.Contains(stderr, c.words) || strings.Contains(stdout, "timeseries") {
			t.Errorf("%s: exit %d, stderr %q, stdout %q; want exit 1 with %q", c.flag, code, stderr, stdout, c.words)
		}
	}
}

// TestFillAndDeleteUniqueRandom runs the disposable-entries fill: every
// operation is a put or a disposable delete ("Number of unique keys
// inserted (disposable+persistent): W." and "Number of 'disposable entry
// delete': D" with W+D the op count), a schedule that runs past --num keys
// fails as db_bench's assertion does, and db_bench's refusals of the
// disposable flags elsewhere are in its words.
func TestFillAndDeleteUniqueRandom(t *testing.T) {
	code, stdout, stderr := runMain(t, "--engine=native", "--db="+filepath.Join(t.TempDir(), "db"),
		"--num=3000", "--seed=1", "--benchmarks=fillanddeleteuniquerandom",
		"--disposable_entries_batch_size=10", "--persistent_entries_batch_size=5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m := regexp.MustCompile(`Number of unique keys inserted \(disposable\+persistent\): (\d+)\.\nNumber of 'disposable entry delete': (\d+)\n`).FindStringSubmatch(stdout)
	if m == nil || atoi(t, m[1])+atoi(t, m[2]) != 3000 || atoi(t, m[2]) == 0 {
		t.Fatalf("want writes and deletes adding up to 3000 ops:\n%s", stdout)
	}
	for _, c := range []struct {
		flags []string
		words string
	}{
		{[]string{"--benchmarks=fillanddeleteuniquerandom", "--disposable_entries_batch_size=10",
			"--persistent_entries_batch_size=5", "--disposable_entries_delete_delay=100000000"}, "is past the 300 keys of --num"},
		{[]string{"--benchmarks=fillrandom", "--disposable_entries_batch_size=10"},
			"Disposable/persistent deletes are not compatible with overwrites and DeleteRanges; and are only supported in filluniquerandom.\n"},
		{[]string{"--benchmarks=filluniquerandom", "--overwrite_probability=0.5", "--overwrite_window_size=0"},
			"Overwrite_window_size must be  strictly greater than 0.\n"},
		{[]string{"--benchmarks=filluniquerandom", "--disposable_entries_batch_size=10", "--writes_per_range_tombstone=5"},
			"Disposable/persistent deletes are not compatible with overwrites and DeleteRanges; and are only supported in filluniquerandom.\n"},
		{[]string{"--benchmarks=filluniquerandom", "--persistent_entries_batch_size=5"},
			"--persistent_entries_batch_size=5 needs a --disposable_entries_batch_size above 0"},
	} {
		args := append([]string{"--engine=native", "--db=" + filepath.Join(t.TempDir(), "db"), "--num=300", "--seed=1"}, c.flags...)
		if code, _, stderr := runMain(t, args...); code != 1 || !strings.Contains(stderr, c.words) {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 with %q", c.flags, code, stderr, c.words)
		}
	}
}

// TestBackgroundWriterRangeDeletions runs readwhilewriting's background
// writer with range deletions after its 1st, 2nd and 3rd write: pebble
// and the native engine write them (each one more write op).
func TestBackgroundWriterRangeDeletions(t *testing.T) {
	args := []string{"--num=200", "--seed=1", "--benchmarks=fillseq,readwhilewriting", "--threads=1",
		"--writes=20", "--finish_after_writes=true", "--writes_per_range_tombstone=1", "--max_num_range_tombstones=3"}
	for _, eng := range []string{"pebble", "native"} {
		code, stdout, stderr := runMain(t, append([]string{"--engine=" + eng, "--db=" + filepath.Join(t.TempDir(), "db")}, args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", eng, code, stderr)
		}
		// fillseq writes 20 of --writes' keys and issues 3 range deletions.
		if n := strings.Count(stdout, "Number of range deletions: 3\n"); n != 2 {
			t.Fatalf("%s: want 2 lines \"Number of range deletions: 3\" (fillseq, the writer):\n%s", eng, stdout)
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestVerifyAgainstTruthDB runs verify (db_bench's VerifyDBFromDB) on
// every engine: a DB filled as the truth DB was verifies; one with a key
// more or less, or other values, fails with exit 1 naming the key;
// a missing truth DB is an open error.
func TestVerifyAgainstTruthDB(t *testing.T) {
	for _, eng := range []string{"native", "pebble"} {
		truth := filepath.Join(t.TempDir(), "truth")
		fill := func(db string, extra ...string) (int, string, string) {
			args := append([]string{"--engine=" + eng, "--db=" + db, "--num=1000", "--seed=1", "--truth_db=" + truth}, extra...)
			return runMain(t, args...)
		}
		if code, _, stderr := fill(truth, "--benchmarks=fillseq"); code != 0 {
			t.Fatalf("%s: truth fill: %s", eng, stderr)
		}
		code, _, stderr := fill(filepath.Join(t.TempDir(), "same"), "--benchmarks=fillseq,verify")
		if code != 0 || !strings.Contains(stderr, "Verifying db >= truth_db with ::Get...\nVerifying db == truth_db...\n...Verified\n") {
			t.Errorf("%s: same fill: exit %d\n%s", eng, code, stderr)
		}
		for _, c := range []struct {
			extra []string
			words string
		}{
			{[]string{"--benchmarks=fillseq,verify", "--num=1001"}, "past the truth DB's last key"},
			{[]string{"--benchmarks=fillseq,verify", "--num=999"}, "is missing from the DB"},
			{[]string{"--benchmarks=fillrandom,verify"}, "has a value in the DB other than the truth DB's"},
			{[]string{"--benchmarks=fillseq,verify", "--truth_db=" + filepath.Join(t.TempDir(), "none")}, "open error: "},
		} {
			code, _, stderr := fill(filepath.Join(t.TempDir(), "db"), c.extra...)
			if code != 1 || !strings.Contains(stderr, c.words) {
				t.Errorf("%s %v: exit %d, stderr %q; want exit 1 with %q", eng, c.extra, code, stderr, c.words)
			}
		}
	}
}

// TestYCSBWorkloads loads records and runs each of YCSB's core workloads
// on two threads, on native and pebble: the operation counts add up to
// the operations run, every read, read-modify-write and scan of a loaded
// key finds it (workload D reads the latest inserts, which another thread
// may not have acknowledged yet), and bad properties exit 1.
func TestYCSBWorkloads(t *testing.T) {
	msg := regexp.MustCompile(`\( reads:(\d+) updates:(\d+) inserts:(\d+) scans:(\d+) rmws:(\d+) found:(\d+)\)`)
	for _, eng := range []string{"native", "pebble"} {
		db := filepath.Join(t.TempDir(), "db")
		for i, w := range []string{"ycsbload", "ycsba", "ycsbb", "ycsbc", "ycsbd", "ycsbe", "ycsbf"} {
			args := []string{"--engine=" + eng, "--db=" + db, "--num=3000", "--reads=400", "--seed=1",
				"--threads=2", "--benchmarks=" + w, "--fieldcount=4", "--fieldlength=25"}
			if i > 0 {
				args = append(args, "--use_existing_db=1")
			}
			code, stdout, stderr := runMain(t, args...)
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", eng, w, code, stderr)
			}
			if w == "ycsbload" {
				if !strings.Contains(stdout, " 3000 operations;") {
					t.Fatalf("%s: load: %s", eng, stdout)
				}
				continue
			}
			m := msg.FindStringSubmatch(stdout)
			if m == nil {
				t.Fatalf("%s %s: no YCSB message:\n%s", eng, w, stdout)
			}
			reads, updates, inserts, scans, rmws, found := atoi(t, m[1]), atoi(t, m[2]), atoi(t, m[3]), atoi(t, m[4]), atoi(t, m[5]), atoi(t, m[6])
			if reads+updates+inserts+scans+rmws != 400 {
				t.Errorf("%s %s: one thread's counts %v do not add up to 400", eng, w, m[1:6])
			}
			if lookups := reads + rmws + scans; found > lookups || (w != "ycsbd" && found != lookups) {
				t.Errorf("%s %s: found %d of %d lookups", eng, w, found, lookups)
			}
		}
	}
	for _, flag := range []string{"--requestdistribution=hotspot", "--readproportion=0", "--fieldlength=-1",
		"--minscanlength=5 --maxscanlength=4", "--insertorder=sorted"} {
		args := append([]string{"--engine=native", "--db=" + filepath.Join(t.TempDir(), "db"), "--num=100",
			"--benchmarks=ycsbload,ycsbc"}, strings.Fields(flag)...)
		if code, _, stderr := runMain(t, args...); code != 1 || !strings.Contains(stderr, "ycsb: ") {
			t.Errorf("%s: exit %d, stderr %q", flag, code, stderr)
		}
	}
}
