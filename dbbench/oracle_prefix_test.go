package dbbench_test

import (
	"strings"
	"testing"
)

// prefixSizeFlags are the --prefix_size flags of args: a DB made with a
// prefix extractor is reopened with the same one, since the pebble engine
// refuses a DB made under another comparer.
func prefixSizeFlags(args []string) []string {
	var out []string
	for _, a := range args {
		if strings.HasPrefix(a, "--prefix_size=") {
			out = append(out, a)
		}
	}
	return out
}

// prefixOracleLists run the prefix extractor's paths: prefix filters in
// tables (with and without whole keys) and in memtables, and seeks
// bounded by the prefix (prefix_same_as_start, auto_prefix_mode), with
// reads of missing keys and prefixes.
var prefixOracleLists = [][]string{
	{"--benchmarks=fillrandom,readrandom,seekrandom,readmissing", "--num=6000", "--seed=3", "--prefix_size=8",
		"--keys_per_prefix=4", "--key_size=16", "--bloom_bits=10", "--memtable_bloom_size_ratio=0.1",
		"--prefix_same_as_start", "--seek_nexts=3", "--write_buffer_size=65536"},
	{"--benchmarks=fillrandom,readrandom,seekrandom", "--num=6000", "--seed=4", "--prefix_size=10",
		"--keys_per_prefix=3", "--key_size=16", "--bloom_bits=10", "--whole_key_filtering=0",
		"--memtable_bloom_size_ratio=0.05", "--memtable_whole_key_filtering", "--prefix_same_as_start",
		"--seek_missing_prefix", "--seek_nexts=2", "--write_buffer_size=65536"},
	{"--benchmarks=fillseq,seekrandom,readrandom", "--num=6000", "--seed=5", "--prefix_size=8",
		"--key_size=16", "--bloom_bits=10", "--auto_prefix_mode", "--seek_nexts=4", "--write_buffer_size=65536"},
	{"--benchmarks=fillrandom,seekrandom", "--num=6000", "--seed=6", "--prefix_size=8", "--keys_per_prefix=5",
		"--key_size=16", "--bloom_bits=10", "--prefix_same_as_start", "--total_order_seek", "--reverse_iterator",
		"--seek_nexts=2", "--write_buffer_size=65536"},
}

// TestOraclePrefixCounts compares every engine's found counts under a
// prefix extractor with C++ db_bench's.
func TestOraclePrefixCounts(t *testing.T) {
	requireOracle(t)
	for i, args := range prefixOracleLists {
		args := append([]string{"--compression_type=none"}, args...)
		want := summarize(runOracle(t, args))
		if len(want) == 0 {
			t.Errorf("list %d: no result lines from the oracle", i)
		}
		for _, engine := range oracleEngines() {
			got := summarize(runOurs(t, engine, args))
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("engine %s list %d %v:\n--- ours\n%s\n--- C++ db_bench\n%s", engine, i, args,
					strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}
