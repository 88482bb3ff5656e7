package dbbench_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
)

// columnFamilyLists spread db_bench's fills, reads, merges and mixgraph's Gets over column
// families: evenly, over a hot set that moves on during the fill, and by
// --column_family_distribution. A key read from another family than the
// one it was written to is not found, so equal found counts say every
// operation went to the family C++ db_bench sends it to.
var columnFamilyLists = [][]string{
	{"--benchmarks=fillrandom,readrandom,fillseq,readrandom", "--num=6000", "--seed=3", "--num_column_families=4"},
	{"--benchmarks=fillrandom,readrandom", "--num=6000", "--seed=5", "--num_column_families=6", "--num_hot_column_families=2"},
	{"--benchmarks=fillbatch,readrandom", "--num=6000", "--seed=9", "--batch_size=5", "--num_column_families=3",
		"--column_family_distribution=20,30,50"},
	{"--benchmarks=mergerandom,readrandom", "--num=3000", "--seed=4", "--num_column_families=2",
		"--merge_operator=uint64add", "--value_size=8"},
	{"--benchmarks=fillrandom,mixgraph", "--num=3000", "--reads=3000", "--seed=2", "--num_column_families=3",
		"--mix_get_ratio=0.7", "--mix_put_ratio=0.2", "--mix_seek_ratio=0.1"},
}

func TestOracleColumnFamilyCounts(t *testing.T) {
	requireOracle(t)
	for i, args := range columnFamilyLists {
		args := append([]string{"--compression_type=none"}, args...)
		want := summarize(runOracle(t, args))
		if len(want) == 0 {
			t.Errorf("list %d: no result lines from the oracle", i)
		}
		for _, eng := range familyEngines() {
			got := summarize(runOurs(t, eng, args))
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s, list %d %v:\n--- ours\n%s\n--- C++ db_bench\n%s", eng, i, args,
					strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

// familyEngines are the engines built that have column families.
func familyEngines() []string {
	var out []string
	for _, eng := range oracleEngines() {
		if eng == "native" || eng == "rocksdb" {
			out = append(out, eng)
		}
	}
	return out
}

// TestColumnFamiliesRefused: engines without column families stop before
// running anything, naming themselves and the flag.
func TestColumnFamiliesRefused(t *testing.T) {
	for _, name := range []string{"pebble"} {
		var out, errb bytes.Buffer
		args := []string{"--engine=" + name, "--db=" + filepath.Join(t.TempDir(), "db"),
			"--benchmarks=fillseq", "--num=10", "--num_column_families=2"}
		if code := dbbench.Main(args, &out, &errb); code != 1 {
			t.Errorf("%s: exit %d, want 1\n%s", name, code, errb.String())
		}
		msg := errb.String()
		if !strings.Contains(msg, "engine "+name) || !strings.Contains(msg, "--num_column_families") {
			t.Errorf("%s: stderr does not name the engine and the flag:\n%s", name, msg)
		}
		if strings.Contains(out.String(), "fillseq") {
			t.Errorf("%s: a benchmark ran:\n%s", name, out.String())
		}
	}
}

// TestOneColumnFamilyRuns: db_bench runs the default family alone for any
// --num_column_families <= 1, whatever --num_hot_column_families says, so
// engines without column families run those command lines.
func TestOneColumnFamilyRuns(t *testing.T) {
	for _, name := range []string{"native", "pebble"} {
		for _, flags := range [][]string{
			{"--num_column_families=0"},
			{"--num_column_families=-1"},
			{"--num_hot_column_families=3"},
			{"--num_column_families=1", "--num_hot_column_families=-2"},
		} {
			var out, errb bytes.Buffer
			args := append([]string{"--engine=" + name, "--db=" + filepath.Join(t.TempDir(), "db"),
				"--benchmarks=fillseq", "--num=10"}, flags...)
			if code := dbbench.Main(args, &out, &errb); code != 0 {
				t.Errorf("%s %v: exit %d, want 0\n%s", name, flags, code, errb.String())
			}
			if !strings.Contains(out.String(), "fillseq") {
				t.Errorf("%s %v: fillseq did not run:\n%s", name, flags, out.String())
			}
		}
	}
}
