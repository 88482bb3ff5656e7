package dbbench_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
)

// TestStartupCheckOrder pins which start-up checks come before db_bench's
// "Set seed" line (so a --seed=0 run prints nothing on stdout) and which come
// after it, and which check wins when several fail, as db_bench 7.8.3 does.
func TestStartupCheckOrder(t *testing.T) {
	db := "--db=" + filepath.Join(t.TempDir(), "db")
	cases := []struct {
		args      []string
		afterSeed bool
		stdout    string // after the seed line
		stderr    string
	}{
		{[]string{"--statistics", "--statistics_string=x", "--compression_type=foo"}, false, "", "Cannot provide both --statistics and --statistics_string.\n"},
		{[]string{"--compression_type=foo", "--use_existing_keys"}, false, "", "Cannot parse compression type 'foo'\n"},
		{[]string{"--wal_compression=zz", "--compressed_secondary_cache_compression_type=yy"}, false, "", "Cannot parse compression type 'zz'\n"},
		{[]string{"--compressed_secondary_cache_compression_type=yy"}, false, "", "Cannot parse compression type 'yy'\n"},
		{[]string{"--use_existing_keys", "--compaction_fadvice=XX"}, true, "", "`-use_existing_db` must be true for `-use_existing_keys` to be settable\n"},
		{[]string{"--compaction_fadvice=XX", "--value_size_distribution_type=odd"}, true, "Unknown compaction fadvice:XX\n", ""},
		{[]string{"--seek_missing_prefix", "--key_size=4", "--prefix_size=6", "--cache_type=x"}, true, "", "prefix_size > 8 required by --seek_missing_prefix\n"},
		{[]string{"--cache_type=bogus", "--prefix_size=20"}, true, "", "Cache type not supported."},
		{[]string{"--cache_type=clock_cache"}, true, "", "Old clock cache implementation has been removed.\n"},
		{[]string{"--value_size_distribution_type=odd", "--prefix_size=20"}, true, "Cannot parse distribution type 'odd'\n", ""},
		{[]string{"--prefix_size=20", "--seek_missing_prefix"}, true, "", "prefix size is larger than key size"},
		{[]string{"--seek_missing_prefix", "--compression_ratio=2"}, true, "", "prefix_size > 8 required by --seek_missing_prefix\n"},
		{[]string{"--compression_ratio=2"}, true, "", "compression_ratio should be between 0 and 1\n"},
		{[]string{"--perf_level=0"}, true, "", "Invalid --perf_level=0: SetPerfLevel takes 1 (kDisable) to 5 (kEnableTime)\n"},
		{[]string{"--perf_level=6"}, true, "", "Invalid --perf_level=6: SetPerfLevel takes 1 (kDisable) to 5 (kEnableTime)\n"},
	}
	for _, c := range cases {
		args := append([]string{db, "--engine=pebble", "--seed=0"}, c.args...)
		code, out, errs := runMain(t, args...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1", c.args, code)
		}
		seedLine := ""
		if c.afterSeed {
			if !strings.HasPrefix(out, "Set seed to ") || !strings.Contains(out, " because --seed was 0\n") {
				t.Errorf("%v: stdout %q lacks the seed line first", c.args, out)
				continue
			}
			seedLine = out[:strings.IndexByte(out, '\n')+1]
		}
		if out != seedLine+c.stdout {
			t.Errorf("%v: stdout %q, want %q", c.args, out, seedLine+c.stdout)
		}
		if errs != c.stderr {
			t.Errorf("%v: stderr %q, want %q", c.args, errs, c.stderr)
		}
	}
}

func TestDeterministicFillsNeedAutoCompactionsOff(t *testing.T) {
	db := "--db=" + filepath.Join(t.TempDir(), "db")
	code, out, errs := runMain(t, db, "--engine=pebble", "--seed=1", "--num=10", "--benchmarks=fillseq,fillseqdeterministic,readseq")
	if code != 1 || !strings.Contains(out, "fillseq      :") || strings.Contains(out, "readseq") {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if !strings.HasSuffix(errs, "Please disable_auto_compactions in FillDeterministic benchmark\n") {
		t.Fatalf("stderr %q", errs)
	}
	code, out, errs = runMain(t, db, "--engine=pebble", "--seed=1", "--num=10", "--disable_auto_compactions",
		"--benchmarks=fillseq,filluniquerandomdeterministic,readseq")
	// Pebble then refuses it: it has no CompactFiles of named tables.
	if code != 1 || strings.Contains(out, "readseq      :") {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if !strings.Contains(errs, "filluniquerandomdeterministic: the pebble engine has no CompactFiles of named tables") {
		t.Fatalf("stderr %q", errs)
	}
}

func TestZeroThreadsRunNothing(t *testing.T) {
	db := "--db=" + filepath.Join(t.TempDir(), "db")
	code, out, errs := runMain(t, db, "--engine=pebble", "--seed=1", "--num=100", "--threads=0", "--benchmarks=fillseq,readrandom,readtocache")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"fillseq      :       0.000 micros/op -9223372036854775808 ops/sec 0.000 seconds 1 operations;\n",
		"readrandom   :       0.000 micros/op -9223372036854775808 ops/sec 0.000 seconds 1 operations;\n",
		"readtocache  : ", // readtocache always runs one thread, over an empty DB here
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, " seconds 1 operations;\n") || strings.Contains(errs, "finished") {
		t.Errorf("stdout %q stderr %q", out, errs)
	}
	code, _, errs = runMain(t, db, "--engine=pebble", "--threads=-1")
	if code != 1 || errs != "Invalid value for --threads: -1, must be >= 0\n" {
		t.Errorf("--threads=-1: exit %d stderr %q", code, errs)
	}
}

func TestZeroNum(t *testing.T) {
	db := "--db=" + filepath.Join(t.TempDir(), "db")
	code, out, errs := runMain(t, db, "--engine=pebble", "--seed=1", "--num=0",
		"--benchmarks=fillseq,readrandom,fillrandom,readseq,seekrandom,updaterandom,readrandomwriterandom,deleterandom")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"Entries:    0\n", " 1 operations; (0 of 0 found)\n\n",
		" 1 operations; ( updates:0 found:0)\n", " 1 operations; ( reads:0 writes:0 total:0 found:0)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	// db_bench dies of SIGFPE when it must pick a random key among none.
	code, _, errs = runMain(t, db, "--engine=pebble", "--seed=1", "--num=0", "--reads=5", "--benchmarks=readrandom")
	if code != 1 || !strings.HasSuffix(errs, "readrandom: --num=0 leaves no keys to pick at random\n") {
		t.Errorf("exit %d stderr %q", code, errs)
	}
	code, _, errs = runMain(t, db, "--engine=pebble", "--num=-5")
	if code != 1 || errs != "Invalid value for --num: -5, must be >= 0\n" {
		t.Errorf("--num=-5: exit %d stderr %q", code, errs)
	}
}

func TestBadRepeatCountIsAnError(t *testing.T) {
	db := "--db=" + filepath.Join(t.TempDir(), "db")
	code, out, errs := runMain(t, db, "--engine=pebble", "--seed=1", "--num=10", "--benchmarks=fillseq,readseq[Xa],readrandom")
	if code != 1 || !strings.Contains(out, "fillseq      :") || strings.Contains(out, "readrandom") {
		t.Fatalf("exit %d stdout %q", code, out)
	}
	if !strings.HasSuffix(errs, "invalid count 'Xa' in benchmark arguments 'readseq[Xa]'\n") {
		t.Fatalf("stderr %q", errs)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	if err := os.WriteFile(file, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	opening := "Initializing RocksDB Options from the specified file\n" +
		"Initializing RocksDB Options from command-line flags\n" +
		"Integrated BlobDB: blob cache disabled\n"
	for _, c := range []struct {
		args   []string
		stderr string
	}{
		// The environment block is printed only after the first Open succeeds.
		{[]string{"--db=" + file}, "open error: IO error: `" + file + "' exists but is not a directory\n"},
		{[]string{"--db=" + file, "--use_existing_db"}, "open error: IO error: `" + file + "' exists but is not a directory\n"},
		{[]string{"--db=" + filepath.Join(dir, "db"), "--compression_type=xpress"}, "open error: Invalid argument: Compression type Xpress is not linked with the binary.\n"},
		{[]string{"--db=" + filepath.Join(dir, "db"), "--max_bytes_for_level_multiplier_additional=1,2"}, "Insufficient number of fanouts specified 2\n"},
		{[]string{"--db=" + filepath.Join(dir, "db"), "--blob_compression_type=nope"}, "Cannot parse compression type 'nope'\n"},
		{[]string{"--db=" + filepath.Join(dir, "db"), "--blob_compression_type=nope", "--user_timestamp_size=4"}, "Only 64 bits timestamps are supported.\n"},
	} {
		code, out, errs := runMain(t, append([]string{"--engine=pebble", "--seed=1", "--num=10", "--benchmarks=fillseq"}, c.args...)...)
		errs = dropIgnoredFlagWarnings(errs)
		if code != 1 || out != opening || errs != c.stderr {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q\nwant stderr %q", c.args, code, out, errs, c.stderr)
		}
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "keep" {
		t.Fatalf("the file named as --db was touched: %q %v", b, err)
	}
}

// TestHashMemtableNeedsPrefix checks db_bench's refusal of the prefix-hashed
// memtables without --prefix_size on every engine: its words on stderr
// after the two "Initializing" lines, exit 1, no database directory made
// and an existing one left as it was.
func TestHashMemtableNeedsPrefix(t *testing.T) {
	for _, engine := range []string{"native", "pebble"} {
		for _, rep := range []string{"prefix_hash", "hash_linkedlist", "HashSkipListRepFactory:100"} {
			db := filepath.Join(t.TempDir(), "db")
			code, out, errs := runMain(t, "--engine="+engine, "--seed=1", "--num=10", "--benchmarks=fillseq", "--db="+db, "--memtablerep="+rep)
			wantOut := "Initializing RocksDB Options from the specified file\n" +
				"Initializing RocksDB Options from command-line flags\n"
			wantErr := "prefix_size should be non-zero if PrefixHash or HashLinkedList memtablerep is used\n"
			if errs = dropIgnoredFlagWarnings(errs); code != 1 || out != wantOut || errs != wantErr {
				t.Errorf("%s %s: exit %d\nstdout %q\nstderr %q", engine, rep, code, out, errs)
			}
			if _, err := os.Stat(db); !os.IsNotExist(err) {
				t.Errorf("%s %s: the database directory was made (%v)", engine, rep, err)
			}
		}
		// An existing database is not destroyed before the refused open.
		db := filepath.Join(t.TempDir(), "db")
		if code, _, errs := runMain(t, "--engine="+engine, "--seed=1", "--num=10", "--benchmarks=fillseq", "--db="+db); code != 0 {
			t.Fatalf("%s fillseq: %s", engine, errs)
		}
		before := dirState(t, db)
		if code, _, _ := runMain(t, "--engine="+engine, "--seed=1", "--num=10", "--benchmarks=fillseq", "--db="+db, "--memtablerep=prefix_hash"); code != 1 {
			t.Errorf("%s: prefix_hash over an existing DB: exit %d", engine, code)
		}
		if after := dirState(t, db); !reflect.DeepEqual(before, after) {
			t.Errorf("%s: the refused run changed the DB: %v -> %v", engine, before, after)
		}
	}
}

// dropIgnoredFlagWarnings removes the driver's own notices about flags that
// have no effect, which db_bench does not print.
func dropIgnoredFlagWarnings(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if !(strings.HasPrefix(l, "WARNING: --") && strings.HasSuffix(l, " has no effect here\n")) {
			b.WriteString(l)
		}
	}
	return b.String()
}

func TestOptionsFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "OPTIONS-missing")
	for _, c := range []struct{ path, stderr string }{
		{missing, "Unable to load options file " + missing + " --- IO error: No such file or directory: While opening a file for sequentially reading: " + missing + ": No such file or directory\n"},
		{dir, "Unable to load options file " + dir + " --- IO error: While reading file sequentially: " + dir + ": Is a directory\n"},
	} {
		code, out, errs := runMain(t, "--engine=pebble", "--db="+filepath.Join(dir, "db"), "--seed=1", "--benchmarks=fillseq", "--options_file="+c.path)
		if code != 1 || out != "Initializing RocksDB Options from the specified file\n" || errs != c.stderr {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q\nwant   %q", c.path, code, out, errs, c.stderr)
		}
	}
}

// TestOpenErrorComesFirstInCombinedCapture: with stdout and stderr in one
// file (2>&1), db_bench's open error precedes the buffered "Initializing"
// lines.
func TestOpenErrorComesFirstInCombinedCapture(t *testing.T) {
	var both bytes.Buffer
	code := dbbench.Main([]string{"--engine=pebble", "--db=" + filepath.Join(t.TempDir(), "db"), "--seed=1",
		"--benchmarks=fillseq", "--compression_type=xpress"}, &both, &both)
	want := "open error: Invalid argument: Compression type Xpress is not linked with the binary.\n" +
		"Initializing RocksDB Options from the specified file\n" +
		"Initializing RocksDB Options from command-line flags\n" +
		"Integrated BlobDB: blob cache disabled\n"
	if code != 1 || both.String() != want {
		t.Fatalf("exit %d, output %q", code, both.String())
	}
}

// TestReadWhileMergingNeedsOperator: without --merge_operator db_bench's
// background merger fails its first Merge (unless, on a tiny run, the readers
// finish first) and the run ends with exit code 1.
func TestReadWhileMergingNeedsOperator(t *testing.T) {
	db := "--db=" + filepath.Join(t.TempDir(), "db")
	code, out, errs := runMain(t, db, "--engine=pebble", "--seed=1", "--num=100", "--progress_reports=false",
		"--benchmarks=fillseq,readwhilemerging,readseq")
	if code != 1 || !strings.HasSuffix(out, "DB path: ["+strings.TrimPrefix(db, "--db=")+"]\n") {
		t.Fatalf("exit %d stdout %q", code, out)
	}
	if !strings.HasSuffix(errs, "put or merge error: Not implemented: Provide a merge_operator when opening DB\n") {
		t.Fatalf("stderr %q", errs)
	}
	code, out, errs = runMain(t, db, "--engine=pebble", "--seed=1", "--num=100", "--merge_operator=put",
		"--benchmarks=fillseq,mergerandom,readwhilemerging,readseq")
	if code != 0 || !strings.Contains(out, "readseq      :") ||
		!strings.Contains(out, "mergerandom  :") || !strings.Contains(out, "readwhilemerging :") {
		t.Fatalf("with --merge_operator: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
}

func TestFewerKeysThanKeysPerPrefix(t *testing.T) {
	db := "--db=" + filepath.Join(t.TempDir(), "db")
	code, out, errs := runMain(t, db, "--engine=pebble", "--seed=1", "--num=5", "--keys_per_prefix=7", "--prefix_size=4",
		"--benchmarks=flush,fillrandom,readrandom")
	if code != 1 || !strings.Contains(out, "flush memtable\n") || strings.Contains(out, "fillrandom   :") {
		t.Fatalf("exit %d stdout %q", code, out)
	}
	if !strings.HasSuffix(errs, "fillrandom: --num=5 is less than --keys_per_prefix=7, which leaves no prefix for any key\n") {
		t.Fatalf("stderr %q", errs)
	}
}

// TestReportFileRecreatedPerBenchmark: --report_file is truncated by each
// benchmark run, so runs shorter than the interval leave the header alone.
func TestReportFileRecreatedPerBenchmark(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "report.csv")
	if err := os.WriteFile(csv, []byte("secs_elapsed,interval_qps\n1,999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runMain(t, "--engine=pebble", "--db="+filepath.Join(dir, "db"), "--seed=1", "--num=200",
		"--benchmarks=fillseq,readseq", "--report_interval_seconds=5", "--report_file="+csv)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got, err := os.ReadFile(csv)
	if err != nil || string(got) != "secs_elapsed,interval_qps\n" {
		t.Fatalf("report file %q %v", got, err)
	}
}
