package dbbench_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
	_ "github.com/godbbench/godbbench/engine/pebble"
)

// The oracle tests run Debian's C++ db_bench 7.8.3 and our driver with the
// same seed and flags and require the same benchmark names, operation counts
// and messages (found counts) in the same order. Timings and MB/s differ by
// nature and are not compared.

const oracleBinary = "/usr/bin/db_bench"

var resultLine = regexp.MustCompile(`^(\S+)\s+:\s+[0-9.]+ micros/op [0-9]+ ops/sec [0-9.]+ seconds ([0-9]+) operations;(.*)$`)
var mbps = regexp.MustCompile(`^\s*[0-9.]+ MB/s ?`)

// summarize keeps name, op count and message of every result line, and
// the "Number of ..." lines some benchmarks print before theirs.
func summarize(out string) []string {
	var s []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Number of ") {
			s = append(s, l)
			continue
		}
		m := resultLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		msg := mbps.ReplaceAllString(m[3], "")
		s = append(s, m[1]+" "+m[2]+" "+strings.TrimSpace(msg))
	}
	return s
}

func runOurs(t *testing.T, engine string, args []string) string {
	t.Helper()
	var out, errb bytes.Buffer
	full := append([]string{"--engine=" + engine, "--db=" + filepath.Join(t.TempDir(), "db")}, args...)
	if code := dbbench.Main(full, &out, &errb); code != 0 {
		t.Fatalf("our db_bench %v exited %d\nstdout:\n%s\nstderr:\n%s", full, code, out.String(), errb.String())
	}
	return out.String()
}

func runOracle(t *testing.T, args []string) string {
	t.Helper()
	full := append([]string{"--db=" + filepath.Join(t.TempDir(), "db")}, args...)
	cmd := exec.Command(oracleBinary, full...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("C++ db_bench %v: %v\n%s\n%s", full, err, out.String(), errb.String())
	}
	return out.String()
}

// runOracleIn runs C++ db_bench on the DB in dir and returns its stdout
// and stderr together, failing t when it fails.
func runOracleIn(t *testing.T, dir string, args []string) string {
	t.Helper()
	cmd := exec.Command(oracleBinary, append([]string{"--db=" + dir}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("C++ db_bench %v: %v\n%s", args, err, out.String())
	}
	return out.String()
}

var oracleLists = [][]string{
	{"--benchmarks=fillrandom,readrandom,seekrandom,readseq,deleterandom,readseq,readrandom", "--num=10000", "--seed=1"},
	// With several threads, benchmarks that write while thread 0 reads
	// (updaterandom, readrandomwriterandom) have timing-dependent found
	// counts, so the threaded list only reads after the fill.
	{"--benchmarks=fillseq,readrandom,readmissing,multireadrandom,readreverse", "--num=5000", "--seed=7", "--threads=2", "--batch_size=3"},
	{"--benchmarks=fillseq,updaterandom,readrandomwriterandom,readrandom", "--num=5000", "--seed=7", "--batch_size=3"},
	{"--benchmarks=fillbatch,overwrite,deleteseq,readseq,fillrandom,seekrandom,readrandomsmall", "--num=20000", "--seed=42", "--batch_size=7", "--seek_nexts=5"},
	{"--benchmarks=fillrandom,readrandom,seekrandom", "--num=3000", "--seed=5", "--keys_per_prefix=10", "--prefix_size=4", "--key_size=12", "--reverse_iterator", "--seek_nexts=2"},
	{"--benchmarks=filluniquerandom,readrandom,fillsync,readrandom,updaterandom", "--num=4000", "--seed=11", "--value_size=40", "--reads=2000", "--writes=1500"},
}

func TestOracleCounts(t *testing.T) {
	requireOracle(t)
	for _, engine := range oracleEngines() {
		for i, args := range oracleLists {
			compareCounts(t, engine, i, append([]string{"--compression_type=none"}, args...))
		}
	}
}

// compareCounts runs list i, args, on C++ db_bench and on engine and
// requires the same summary, and one that is not empty.
func compareCounts(t *testing.T, engine string, i int, args []string) {
	t.Helper()
	want := summarize(runOracle(t, args))
	got := summarize(runOurs(t, engine, args))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("engine %s list %d %v:\n--- ours\n%s\n--- C++ db_bench\n%s", engine, i, args,
			strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(want) == 0 {
		t.Errorf("list %d: no result lines from the oracle", i)
	}
}
