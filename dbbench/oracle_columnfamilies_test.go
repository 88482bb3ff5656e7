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

// columnFamilyReadOnlyRuns are fills followed by a read-only read of the
// DB they leave: all families, the hot ones only, and fewer families than
// the DB has (a read-only open may leave families out). The first fill's
// data stays in the WAL; the second's goes to tables as well.
var columnFamilyReadOnlyRuns = []struct{ fill, read []string }{
	{[]string{"--benchmarks=fillrandom", "--num=6000", "--seed=3", "--num_column_families=4"},
		[]string{"--benchmarks=readrandom,readrandom", "--num=6000", "--seed=3", "--num_column_families=4"}},
	{[]string{"--benchmarks=fillrandom,fillseq", "--num=20000", "--seed=5", "--num_column_families=3", "--write_buffer_size=131072"},
		[]string{"--benchmarks=readrandom,seekrandom", "--num=20000", "--reads=5000", "--seed=6", "--num_column_families=3", "--num_hot_column_families=2"}},
	{[]string{"--benchmarks=fillrandom", "--num=6000", "--seed=3", "--num_column_families=4"},
		[]string{"--benchmarks=readrandom", "--num=6000", "--seed=3", "--num_column_families=2"}},
}

// TestOracleColumnFamilyReadOnly: a read-only open of a DB with column
// families finds what C++ db_bench finds in the DB its own fill left.
func TestOracleColumnFamilyReadOnly(t *testing.T) {
	requireOracle(t)
	for i, run := range columnFamilyReadOnlyRuns {
		fill := append([]string{"--compression_type=none"}, run.fill...)
		read := append([]string{"--compression_type=none", "--use_existing_db=1", "--readonly=1"}, run.read...)
		dir := filepath.Join(t.TempDir(), "db")
		runOracleIn(t, dir, fill)
		want := summarize(runOracleIn(t, dir, read))
		if len(want) == 0 {
			t.Errorf("run %d: no result lines from the oracle", i)
		}
		for _, eng := range familyEngines() {
			dir := filepath.Join(t.TempDir(), "db")
			runNative(t, dir, append([]string{"--engine=" + eng}, fill...)...)
			got := summarize(runNative(t, dir, append([]string{"--engine=" + eng}, read...)...))
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s, run %d %v:\n--- ours\n%s\n--- C++ db_bench\n%s", eng, i, read,
					strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

// TestColumnFamilyReadOnlyNotFound: a read-only open naming more families
// than the DB has stops with C++ db_bench's open error.
func TestColumnFamilyReadOnlyNotFound(t *testing.T) {
	for _, eng := range familyEngines() {
		dir := filepath.Join(t.TempDir(), "db")
		runNative(t, dir, "--engine="+eng, "--benchmarks=fillseq", "--num=100", "--num_column_families=2")
		code, out, errs := runMain(t, "--engine="+eng, "--db="+dir, "--benchmarks=readrandom", "--num=100",
			"--num_column_families=3", "--use_existing_db=1", "--readonly=1")
		want := "open error: Invalid argument: Column family not found: column_family_name_000002\n"
		if code != 1 || !strings.HasSuffix(errs, want) {
			t.Errorf("%s: exit %d, stderr %q, want 1 and %q\n%s", eng, code, errs, want, out)
		}
	}
}
