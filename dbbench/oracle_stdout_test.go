package dbbench_test

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
)

// The stdout oracle test runs the C++ db_bench and our driver on the same
// command line and compares their whole stdout (and, for single-threaded
// lists, stderr) line by line after masking what differs by nature: timings,
// MB/s, the repeat statistics, histogram contents, the DB path, the seed
// line's value, the version line and the assertion warning of the Debian
// build. Everything else (order, messages, blank lines, counts, skip and
// error lines, exit codes) must match.

type oracleRun struct {
	code           int
	stdout, stderr string
}

var (
	maskResult  = regexp.MustCompile(`:\s+[-0-9.]+ micros/op -?[0-9]+ ops/sec [0-9.]+ seconds`)
	maskMBs     = regexp.MustCompile(`\s+[0-9.]+ MB/s`)
	maskRepeat  = regexp.MustCompile(`^(\S+ \[(AVG|AVG   |MEDIAN|CI95) [0-9]+ runs\] :).*$`)
	maskSeed    = regexp.MustCompile(`^Set seed to [0-9]+ because --seed was 0$`)
	maskHistNum = regexp.MustCompile(`^(Count: [0-9]+) Average: .*$`)
	maskIntvl   = regexp.MustCompile(`^[0-9]{4}/[0-9]{2}/[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2}  (\.\.\. thread [0-9]+: \([0-9]+,[0-9]+\) ops and )\([0-9.]+,[0-9.]+\)( ops/second in )\([0-9.]+,[0-9.]+\)( seconds)$`)
	dropLine    = regexp.MustCompile(`^(WARNING: Assertions are enabled; benchmarks unnecessarily slow|WARNING: engine \S+ ignores .*|WARNING: --\S+ is accepted for compatibility but has no effect here|(RocksDB|Pebble|Native|[A-Za-z]+):\s+version .*|Date:\s+.*|Min: .*|Percentiles: .*|[\[(]\s+[0-9]+,\s+[0-9]+ \].*)$`)
)

// normalize masks one output stream; dir is the --db path.
func normalize(s, dir string) string {
	s = strings.ReplaceAll(s, dir, "DB")
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		nl := strings.HasSuffix(l, "\n")
		l = strings.TrimSuffix(l, "\n")
		if l == "" && !nl {
			continue
		}
		if dropLine.MatchString(l) {
			continue
		}
		l = maskResult.ReplaceAllString(l, ": T")
		l = maskMBs.ReplaceAllString(l, " M MB/s")
		l = maskRepeat.ReplaceAllString(l, "$1 N")
		l = maskSeed.ReplaceAllString(l, "Set seed to S because --seed was 0")
		l = maskHistNum.ReplaceAllString(l, "$1")
		l = maskIntvl.ReplaceAllString(l, "TIME $1(R)$2(S)$3")
		// Progress lines end in '\r' without a newline: one per line here.
		l = strings.ReplaceAll(l, "\r", "\\r\n")
		b.WriteString(l)
		b.WriteString("\n")
	}
	return b.String()
}

func runOracleFull(t *testing.T, args []string) oracleRun {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "db")
	cmd := exec.Command(oracleBinary, append([]string{"--db=" + dir}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code := 0
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("C++ db_bench %v: %v", args, err)
		}
		code = ee.ExitCode()
	}
	return oracleRun{code, normalize(out.String(), dir), normalize(errb.String(), dir)}
}

func runOursFull(t *testing.T, engine string, args []string) oracleRun {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "db")
	var out, errb bytes.Buffer
	code := dbbench.Main(append([]string{"--engine=" + engine, "--db=" + dir}, args...), &out, &errb)
	return oracleRun{code, normalize(out.String(), dir), normalize(errb.String(), dir)}
}

type stdoutCase struct {
	name          string
	args          []string
	compareStderr bool // deterministic stderr: one thread, no background writer
}

var stdoutCases = []stdoutCase{
	{"writes", []string{"--benchmarks=fillseq,fillbatch,fillrandom,filluniquerandom,overwrite,readseq,deleteseq,readseq,fillseq,deleterandom,readreverse",
		"--num=5000", "--seed=1"}, true},
	{"reads", []string{"--benchmarks=fillrandom,readseq,readreverse,readtocache,readrandom,readmissing,readrandomsmall,multireadrandom,seekrandom,newiterator,readrandomwriterandom,updaterandom,compact,compactall,flush,resetstats,readrandom",
		"--num=5000", "--seed=3", "--batch_size=4"}, true},
	{"seek-options", []string{"--benchmarks=fillseq,seekrandom,seekrandom[X2]", "--num=3000", "--seed=5",
		"--seek_nexts=10", "--max_scan_distance=5", "--reverse_iterator"}, true},
	{"repeats", []string{"--benchmarks=fillseq,readrandom[X3-W1],deleteseq[X2],readseq[W2],readseq[X2],readseq[X0]", "--num=2000", "--seed=2"}, true},
	{"ci-only", []string{"--benchmarks=fillseq,readseq[X2]", "--num=1000", "--seed=2", "--confidence_interval_only"}, true},
	{"threads", []string{"--benchmarks=fillseq,readrandom,readseq,overwrite,seekrandom,updaterandom,filluniquerandom", "--num=2000", "--seed=4", "--threads=3"}, false},
	// fill100K and fillsync write --writes (default --num) ops over num/1000 keys.
	{"big-values", []string{"--benchmarks=fill100K,readseq,fillsync,readrandom", "--num=2000", "--writes=100", "--seed=6"}, true},
	{"tiny-fillsync", []string{"--benchmarks=fillsync,fill100K", "--num=500", "--seed=6"}, true},
	{"histogram", []string{"--benchmarks=fillseq,readrandomwriterandom,updaterandom,deleteseq,readseq", "--num=2000", "--seed=7", "--histogram"}, true},
	{"writes-deletes-counts", []string{"--benchmarks=fillseq,readseq,fillrandom,overwrite,readseq,deleteseq,readseq,deleterandom,readseq",
		"--num=3000", "--seed=8", "--writes=4000", "--deletes=1000", "--batch_size=3"}, true},
	{"prefix", []string{"--benchmarks=fillrandom,readrandom,seekrandom,readseq", "--num=3000", "--seed=9",
		"--keys_per_prefix=10", "--prefix_size=4", "--key_size=12", "--value_size=40"}, true},
	{"no-progress-seed0", []string{"--benchmarks=fillseq,readrandom", "--num=500", "--progress_reports=false"}, true},
	{"zero-threads", []string{"--benchmarks=fillseq,readrandom,readtocache", "--num=100", "--seed=1", "--threads=0"}, true},
	{"zero-num", []string{"--benchmarks=fillseq,readrandom,fillrandom,readseq,seekrandom,updaterandom,readrandomwriterandom,deleterandom", "--num=0", "--seed=1"}, true},
	{"stats-interval", []string{"--benchmarks=fillseq,readrandom", "--num=3000", "--seed=1", "--stats_interval=1000"}, true},
	{"stats-interval-no-progress", []string{"--benchmarks=fillseq,readrandom", "--num=3000", "--seed=1", "--stats_interval=1000", "--progress_reports=false"}, true},
	{"stats-interval-batches", []string{"--benchmarks=fillbatch,readseq", "--num=5000", "--seed=1", "--stats_interval=700"}, true},
	{"waitforcompaction", []string{"--benchmarks=fillseq,flush,waitforcompaction,readseq", "--num=1000", "--seed=1"}, true},
	{"deterministic-fill-refused", []string{"--benchmarks=fillseq,fillseqdeterministic,readseq", "--num=100", "--seed=1"}, true},
	{"merge-needs-operator", []string{"--benchmarks=fillseq,mergerandom,readseq", "--num=100", "--seed=1"}, true},
	{"merge-needs-operator-2", []string{"--benchmarks=fillseq,readrandommergerandom", "--num=100", "--seed=1"}, true},
	{"unknown-in-7.8.3", []string{"--benchmarks=fillseq,newiteratorwhilemerging", "--num=100", "--seed=1"}, true},
	{"unknown-in-7.8.3-2", []string{"--benchmarks=fillseq,multireadwhilewriting", "--num=100", "--seed=1"}, true},
	{"unknown-benchmark", []string{"--benchmarks=fillseq,,readseq,bogus,readseq", "--num=100", "--seed=1"}, true},
	{"xpress-open-error", []string{"--benchmarks=fillseq", "--num=100", "--seed=1", "--compression_type=xpress"}, true},
	{"bad-item-args", []string{"--benchmarks=fillseq,readseq]", "--num=100", "--seed=1"}, true},
}

// startupErrorCases fail before any benchmark; stdout and stderr must match
// exactly (the seed value masked).
var startupErrorCases = [][]string{
	{"--compression_type=foo"},
	{"--statistics", "--statistics_string=x", "--compression_type=foo"},
	{"--value_size_distribution_type=odd", "--prefix_size=20"},
	{"--use_existing_keys", "--value_size_distribution_type=odd"},
	{"--prefix_size=20", "--seek_missing_prefix"},
	{"--seek_missing_prefix", "--compression_ratio=2"},
	{"--compression_ratio=2"},
	{"--seed=1", "--wal_compression=bogus", "--compressed_secondary_cache_compression_type=b3"},
	{"--seed=0", "--compressed_secondary_cache_compression_type=b3"},
	{"--compaction_fadvice=XX", "--value_size_distribution_type=odd"},
	{"--use_existing_keys", "--compaction_fadvice=XX"},
	{"--seed=1", "--compaction_fadvice=willNeed", "--benchmarks="},
	{"--seek_missing_prefix", "--key_size=4", "--prefix_size=6"},
	{"--cache_type=bogus", "--prefix_size=20"},
	{"--cache_type=clock_cache"},
	{"--seed=1", "--cache_type=bogus", "--cache_size=0", "--benchmarks="},
	{"--seed=1", "--max_bytes_for_level_multiplier_additional=1,2", "--benchmarks=fillseq"},
	{"--seed=1", "--options_file=/nonexistent/OPTIONS", "--benchmarks=fillseq"},
	{"--seed=1", "--user_timestamp_size=4", "--blob_compression_type=x", "--benchmarks=fillseq"},
	{"--seed=1", "--user_timestamp_size=4", "--max_bytes_for_level_multiplier_additional=1", "--benchmarks=fillseq"},
	{"--num=abc"},
	{"--no_such_flag=1"},
	{"--readwritepercent=100"},
	{"--version"},
}

func TestOracleStdout(t *testing.T) {
	requireOracle(t)
	for _, c := range stdoutCases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"--compression_type=none"}, c.args...)
			want := runOracleFull(t, args)
			for _, engine := range oracleEngines() {
				got := runOursFull(t, engine, args)
				if got.code != want.code {
					t.Errorf("%s: exit %d, C++ db_bench %d", engine, got.code, want.code)
				}
				if got.stdout != want.stdout {
					t.Errorf("%s %v: stdout differs\n%s", engine, args, lineDiff(got.stdout, want.stdout))
				}
				if c.compareStderr && got.stderr != want.stderr {
					t.Errorf("%s %v: stderr differs\n%s", engine, args, lineDiff(got.stderr, want.stderr))
				}
			}
		})
	}
	for _, args := range startupErrorCases {
		want := runOracleFull(t, args)
		for _, engine := range oracleEngines() {
			got := runOursFull(t, engine, args)
			if args[0] == "--version" {
				// C++'s line comes first; godbbench's version follows it
				// (TestVersionLines).
				got.stdout, _, _ = strings.Cut(got.stdout, "godbbench version ")
			}
			if got != want {
				t.Errorf("%v/%s: got exit %d stdout %q stderr %q\nC++ db_bench: exit %d stdout %q stderr %q",
					args, engine, got.code, got.stdout, got.stderr, want.code, want.stdout, want.stderr)
			}
		}
	}
}

// lineDiff shows the first differing line with some context.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			lo := max(0, i-3)
			return "context:\n" + strings.Join(w[lo:i], "\n") + "\n--- ours:\n" + gl + "\n--- C++ db_bench:\n" + wl
		}
	}
	return ""
}
