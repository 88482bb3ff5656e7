package dbbench_test

import (
	"path/filepath"
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
