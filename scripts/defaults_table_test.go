// Package scripts holds the tests of the measurement scripts beside it:
// each runs a script against a stand-in db_bench and compares what the
// script prints with a golden file.
package scripts

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fakeDBBench is a stand-in db_bench: it prints a result line and a
// percentile line for each of --benchmarks, with ops/sec from its engine
// and the number of its run (counted in a file beside it), so that each
// engine and round has its own figures. An item name[Xn] prints n result
// lines, then db_bench's average and median lines, the median 100 above
// the first run's figure.
const fakeDBBench = `#!/usr/bin/env bash
dir=$(dirname "$0")
run=$(( $(cat "$dir/runs" 2>/dev/null || echo 0) + 1 ))
echo "$run" > "$dir/runs"
echo "args: $*"
for a in "$@"; do
  case $a in
  --engine=*) engine=${a#--engine=} ;;
  --benchmarks=*) benchmarks=${a#--benchmarks=} ;;
  esac
done
case $engine in native) base=3000 ;; pebble) base=1000 ;; *) base=1200 ;; esac
i=0
for item in ${benchmarks//,/ }; do
  i=$((i + 1))
  b=${item%%[*}
  n=1
  [ "$b" = "$item" ] || { n=${item#*[X}; n=${n%]}; }
  [ "$engine/$b" = pebble/readseq ] && { echo "$b : failed"; continue; }
  for k in $(seq 1 "$n"); do
    echo "$b :       1.000 micros/op $((base * run + i + k - 1)) ops/sec 1.000 seconds 1000 operations;"
    echo "Microseconds per write:"
    echo "Percentiles: P50: 1.00 P75: 2.00 P99: $i.50 P99.9: $((i * 10)).00 P99.99: 99.00"
  done
  if [ "$n" -gt 1 ]; then
    echo "$b [AVG    $n runs] : 7 (± 1) ops/sec;    0.1 (± 0.0) MB/sec"
    echo "$b [MEDIAN $n runs] : $((base * run + i + 100)) ops/sec;    0.1 MB/sec"
  fi
done
`

// fakeCorePing is a stand-in scripts/coreping whose round trip counts its
// calls from 100, so the table shows which call was before and which after
// each run.
const fakeCorePing = `#!/usr/bin/env bash
dir=$(dirname "$0")
n=$(( $(cat "$dir/pings" 2>/dev/null || echo 99) + 1 ))
echo "$n" > "$dir/pings"
echo "coreping cpus 0,1 round trip $n ns (min 1, max 2)"
`

// writeFakes writes the stand-in db_bench (dbBench, a script) and
// fakeCorePing into dir and returns the environment that points the
// script at them.
func writeFakes(t *testing.T, dir, dbBench string) []string {
	t.Helper()
	bin, ping := filepath.Join(dir, "db_bench"), filepath.Join(dir, "coreping")
	if err := os.WriteFile(bin, []byte(dbBench), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ping, []byte(fakeCorePing), 0o755); err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "BIN="+bin, "COREPING="+ping, "DB="+filepath.Join(dir, "db"), "LOGDIR="+filepath.Join(dir, "logs"))
}

// TestDefaultsTable runs scripts/defaults_table.sh for three engines and
// two rounds against fakeDBBench and compares its tables with
// testdata/defaults_table.golden; the CPU and RSS figures, which are the
// machine's, are masked. A benchmark an engine did not report shows "?"
// in its ops and its ratios.
func TestDefaultsTable(t *testing.T) {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Fatalf("defaults_table.sh needs /usr/bin/time (Debian package time): %v", err)
	}
	dir := t.TempDir()
	cmd := exec.Command("bash", "defaults_table.sh", "1000", "2", "2", "native", "pebble", "rocksdb")
	cmd.Env = append(writeFakes(t, dir, fakeDBBench), "READS=10")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("defaults_table.sh: %v\n%s", err, out)
	}
	cpu := regexp.MustCompile(`[0-9.]+ \+ [0-9.]+ s, [0-9]+ MB`)
	got := cpu.ReplaceAll(out, []byte("U + S s, R MB"))
	golden := filepath.Join("testdata", "defaults_table.golden")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("defaults_table.sh printed\n%s\nwant\n%s", got, want)
	}
	// The flags db_bench was given, and nothing else.
	log, err := os.ReadFile(filepath.Join(dir, "logs", "pebble.t2.n1000.r2.log"))
	if err != nil {
		t.Fatal(err)
	}
	wantArgs := "args: --engine=pebble --db=" + filepath.Join(dir, "db") + " --benchmarks=fillseq,fillrandom,overwrite,updaterandom,readrandom,readseq,readreverse,seekrandom,readwhilewriting,readrandomwriterandom,multireadrandom,deleterandom --num=1000 --threads=2 --seed=1 --histogram=1 --progress_reports=false --reads=10\n"
	if !strings.HasPrefix(string(log), wantArgs) {
		t.Errorf("pebble's round 2 log begins %q, want %q", log[:min(len(log), len(wantArgs))], wantArgs)
	}
}

// TestDefaultsTableScanRepeats: with SCAN_REPEATS=n the scans run as
// readseq[Xn] and readreverse[Xn] in place, and their rows take the median
// line, not the last run's.
func TestDefaultsTableScanRepeats(t *testing.T) {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Fatalf("defaults_table.sh needs /usr/bin/time (Debian package time): %v", err)
	}
	dir := t.TempDir()
	cmd := exec.Command("bash", "defaults_table.sh", "1000", "8", "1", "native", "rocksdb")
	cmd.Env = append(writeFakes(t, dir, fakeDBBench), "SCAN_REPEATS=3")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("defaults_table.sh: %v\n%s", err, out)
	}
	// Run 1 (native, base 3000) and run 2 (rocksdb, base 1200): readseq is
	// item 6, readreverse 7, seekrandom 8 (not repeated: its last line).
	for _, row := range []string{
		"| readseq | native | 3106 |",
		"| readseq | rocksdb | 2506 |",
		"| readreverse | native | 3107 |",
		"| readreverse | rocksdb | 2507 |",
		"| seekrandom | native | 3008 |",
		"| readseq | 1.24x |",
	} {
		if !strings.Contains(string(out), row) {
			t.Errorf("table lacks %q:\n%s", row, out)
		}
	}
	log, err := os.ReadFile(filepath.Join(dir, "logs", "native.t8.n1000.r1.log"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "--benchmarks=fillseq,fillrandom,overwrite,updaterandom,readrandom,readseq[X3],readreverse[X3],seekrandom,"; !strings.Contains(string(log), want) {
		t.Errorf("native's log lacks %q:\n%s", want, log)
	}
	bad := t.TempDir()
	cmd = exec.Command("bash", "defaults_table.sh", "1000", "8", "1", "native")
	cmd.Env = append(writeFakes(t, bad, fakeDBBench), "SCAN_REPEATS=x")
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Run(); cmd.ProcessState.ExitCode() != 2 || !strings.Contains(errOut.String(), "SCAN_REPEATS 'x' is not a positive integer") {
		t.Errorf("SCAN_REPEATS=x: %v, stderr %q; want exit 2 and the complaint", err, errOut.String())
	}
	if _, err := os.Stat(filepath.Join(bad, "runs")); err == nil {
		t.Error("SCAN_REPEATS=x: db_bench ran before the script refused it")
	}
}

// TestDefaultsTableBadInput checks that the script refuses bad arguments
// with its usage and exit status 2 before running anything, and that a
// db_bench run that fails makes it exit 1 after printing the table, with
// that run's cells unknown.
func TestDefaultsTableBadInput(t *testing.T) {
	dir := t.TempDir()
	env := writeFakes(t, dir, "#!/bin/sh\necho ran >> \"$(dirname \"$0\")/runs\"\nexit 1\n")
	run := func(args ...string) (stdout, stderr string, code int) {
		cmd := exec.Command("bash", append([]string{"defaults_table.sh"}, args...)...)
		cmd.Env = env
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code = cmd.ProcessState.ExitCode()
		if err != nil && code < 0 {
			t.Fatal(err)
		}
		return out.String(), errOut.String(), code
	}
	for _, args := range [][]string{
		{},
		{"1000", "1", "1"},
		{"1e6", "1", "1", "native"},
		{"1000", "0", "1", "native"},
		{"1000", "1", "-1", "native"},
	} {
		_, stderr, code := run(args...)
		if code != 2 || !strings.Contains(stderr, "usage: scripts/defaults_table.sh NUM THREADS ROUNDS ENGINE...") {
			t.Errorf("args %q: exit %d, stderr %q; want 2 and the usage", args, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "runs")); err == nil {
		t.Fatal("db_bench ran for bad arguments")
	}
	stdout, stderr, code := run("1000", "1", "1", "native", "pebble")
	if code != 1 || !strings.Contains(stderr, "failed: ") {
		t.Errorf("failing db_bench: exit %d, stderr %q; want 1 and the failed log", code, stderr)
	}
	for _, want := range []string{"| readseq | native | ? | ? | ? |", "| readseq | ? |"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("failing db_bench: no %q in the table:\n%s", want, stdout)
		}
	}
}

// TestDefaultsTableTimeBin: TIMEBIN names the program that runs each
// db_bench and reports its CPU and peak RSS (scripts/devkit.sh points it
// at GNU time run through a carried loader); its figures reach the table.
func TestDefaultsTableTimeBin(t *testing.T) {
	dir := t.TempDir()
	timeBin := filepath.Join(dir, "time")
	fake := "#!/usr/bin/env bash\n[ \"$1\" = -f ] || exit 9\nshift 2\n\"$@\"\nrc=$?\necho 'cpu_rss 7.25 0.50 10240' >&2\nexit $rc\n"
	if err := os.WriteFile(timeBin, []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "defaults_table.sh", "1000", "1", "1", "native")
	cmd.Env = append(writeFakes(t, dir, fakeDBBench), "TIMEBIN="+timeBin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("defaults_table.sh: %v\n%s", err, out)
	}
	if want := "| native | 7.25 + 0.50 s, 10 MB, 100-101 ns |"; !strings.Contains(string(out), want) {
		t.Errorf("defaults_table.sh printed\n%s\nwant a row %q", out, want)
	}
}

// TestDevkitBadArguments: scripts/devkit.sh refuses, with exit status 2
// and a message naming the problem, a missing mode, a run without
// tables, a malformed table spec and a run without OUT, before it builds
// or runs anything.
func TestDevkitBadArguments(t *testing.T) {
	for _, c := range []struct {
		args  []string
		noOut bool
		want  string
	}{
		{nil, false, "usage:"},
		{[]string{"bench"}, false, "usage:"},
		{[]string{"run"}, false, "usage:"},
		{[]string{"run", "1000:2"}, false, "bad spec '1000:2'"},
		{[]string{"run", "1000:2:60:x"}, false, "bad spec '1000:2:60:x'"},
		{[]string{"run", "1000:2:60", "0:1:5"}, false, "bad spec '0:1:5'"},
		{[]string{"run", "1000:2:60:125"}, true, "run needs OUT"},
	} {
		cmd := exec.Command("bash", append([]string{"devkit.sh"}, c.args...)...)
		out := ""
		if !c.noOut {
			out = t.TempDir()
		}
		cmd.Env = append(os.Environ(), "OUT="+out)
		got, err := cmd.CombinedOutput()
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != 2 || !strings.Contains(string(got), c.want) {
			t.Errorf("devkit.sh %q: exit %d, output %q; want exit 2 and %q", c.args, code, got, c.want)
		}
	}
}
