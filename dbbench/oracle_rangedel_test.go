package dbbench_test

import "testing"

// rangeDeleteLists: range deletions in the fills (random, sequential,
// unique random with overwrites, batches).
var rangeDeleteLists = [][]string{
	{"--benchmarks=fillrandom,readseq,readrandom", "--num=5000", "--seed=1",
		"--writes_per_range_tombstone=10", "--max_num_range_tombstones=100",
		"--range_tombstone_width=20", "--writes_before_delete_range=50"},
	{"--benchmarks=fillseq,readseq,readrandom", "--num=3000", "--seed=2",
		"--writes_per_range_tombstone=7", "--max_num_range_tombstones=40", "--batch_size=4"},
	{"--benchmarks=filluniquerandom,readseq", "--num=4000", "--seed=3",
		"--writes_per_range_tombstone=25", "--max_num_range_tombstones=30",
		"--overwrite_probability=0.3", "--overwrite_window_size=10"},
}

// pointDeleteLists are range deletions expanded into point deletions and
// the key generator widened without range deletions, which every engine
// runs.
var pointDeleteLists = [][]string{
	{"--benchmarks=fillrandom,readseq,readrandom", "--num=3000", "--seed=4",
		"--writes_per_range_tombstone=9", "--max_num_range_tombstones=20",
		"--range_tombstone_width=5", "--expand_range_tombstones=true"},
	{"--benchmarks=fillrandom,readrandom", "--num=3000", "--seed=5", "--max_num_range_tombstones=500"},
}

// TestOracleRangeDeletions compares the "Number of range deletions" lines,
// result lines and contents with C++ db_bench's on every engine.
func TestOracleRangeDeletions(t *testing.T) {
	compareListsWithOracle(t, rangeDeleteLists)
	compareListsWithOracle(t, pointDeleteLists)
}
