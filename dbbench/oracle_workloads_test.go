package dbbench_test

import "testing"

// mixgraphLists drive mixgraph's three key models (uniform, power
// distribution, two-term-exponential key ranges with power offsets), all
// three query types, prefixed keys (where a power-distributed key can be
// negative) and the Get-only default, whose averages are 0/0 ("-nan").
// One thread each: with more, Puts and reads interleave differently from
// run to run and found counts vary.
var mixgraphLists = [][]string{
	{"--benchmarks=fillrandom,mixgraph,readseq", "--num=5000", "--seed=1",
		"--mix_get_ratio=0.5", "--mix_put_ratio=0.3", "--mix_seek_ratio=0.2"},
	{"--benchmarks=fillrandom,mixgraph,readseq", "--num=5000", "--seed=2",
		"--mix_get_ratio=0.83", "--mix_put_ratio=0.14", "--mix_seek_ratio=0.03",
		"--key_dist_a=0.002312", "--key_dist_b=0.3467", "--keyrange_dist_a=14.18",
		"--keyrange_dist_b=-2.917", "--keyrange_dist_c=0.0164", "--keyrange_dist_d=-0.08082",
		"--keyrange_num=30", "--mix_max_value_size=300", "--mix_max_scan_len=50"},
	{"--benchmarks=fillrandom,mixgraph,readseq", "--num=4000", "--seed=3", "--keys_per_prefix=10",
		"--mix_get_ratio=0.6", "--mix_put_ratio=0.2", "--mix_seek_ratio=0.2",
		"--key_dist_a=0.002312", "--key_dist_b=0.3467", "--value_theta=5", "--iter_k=0"},
	{"--benchmarks=fillseq,mixgraph", "--num=3000", "--seed=1", "--reads=2000"},
}

// TestOracleMixGraph compares mixgraph's result lines ("( Gets:N Puts:N
// Seek:N, reads N in N found, avg size: ...)") and the contents it leaves
// with C++ db_bench's on every engine.
func TestOracleMixGraph(t *testing.T) { compareListsWithOracle(t, mixgraphLists) }

// seekSeqFastLists: fillseekseq (its writes untimed, its seek and step
// counts) with and without --seek_nexts, and readrandomfast's power-of-two
// key mask with its non-existent keys, on one and two threads (two after
// fillseq, whose threads write the same values, so the contents are fixed).
var seekSeqFastLists = [][]string{
	{"--benchmarks=fillseekseq,readseq", "--num=3000", "--seed=1"},
	{"--benchmarks=fillseekseq", "--num=3000", "--seed=1", "--seek_nexts=3", "--writes=10"},
	{"--benchmarks=fillrandom,readrandomfast", "--num=3000", "--seed=1"},
	{"--benchmarks=fillseq,readrandomfast", "--num=2500", "--seed=4", "--reads=450", "--threads=2"},
}

// TestOracleFillSeekSeqAndReadRandomFast compares fillseekseq's and
// readrandomfast's result lines ("(N of M found, issued K non-exist
// keys)") and contents with C++ db_bench's on every engine.
func TestOracleFillSeekSeqAndReadRandomFast(t *testing.T) {
	compareListsWithOracle(t, seekSeqFastLists)
}

// verifyScanLists: randomwithverify's rounds of GetMany, PutMany and
// DeleteMany (default and changed percentages, prefixed keys laid out for
// --numdistinct keys), and readwhilescanning's readers beside the
// wrapping scan.
var verifyScanLists = [][]string{
	{"--benchmarks=randomwithverify,readseq", "--num=3000", "--seed=1", "--numdistinct=500"},
	{"--benchmarks=fillseq,randomwithverify,readseq", "--num=3000", "--seed=2", "--numdistinct=300",
		"--deletepercent=20", "--readwritepercent=50", "--reads=5000"},
	{"--benchmarks=randomwithverify,readseq", "--num=3000", "--seed=3", "--numdistinct=500",
		"--keys_per_prefix=5", "--prefix_size=4"},
	{"--benchmarks=fillrandom,readwhilescanning", "--num=3000", "--seed=1"},
}

// TestOracleRandomWithVerifyAndReadWhileScanning compares the result lines
// ("( get:N put:N del:N total:N found:N)", readwhilescanning's op count
// and found line) and contents with C++ db_bench's on every engine.
func TestOracleRandomWithVerifyAndReadWhileScanning(t *testing.T) {
	compareListsWithOracle(t, verifyScanLists)
}

// uniqueShapeLists: filluniquerandom's overwrites of recent keys (the
// bernoulli draws of libstdc++'s default engine, the Random64 reservoir
// pick), in single entries and batches, and fillanddeleteuniquerandom
// with its default flags, where it is filluniquerandom. The disposable
// entries' schedule depends on the clock, so it is left to
// TestFillAndDeleteUniqueRandom.
var uniqueShapeLists = [][]string{
	{"--benchmarks=filluniquerandom,readseq", "--num=5000", "--seed=1",
		"--overwrite_probability=0.3", "--overwrite_window_size=10"},
	{"--benchmarks=filluniquerandom,readseq", "--num=5000", "--seed=2",
		"--overwrite_probability=0.9", "--overwrite_window_size=100", "--batch_size=7"},
	{"--benchmarks=fillanddeleteuniquerandom,readseq", "--num=3000", "--seed=3"},
}

// TestOracleUniqueRandomShapes compares the "Number of unique keys
// inserted" lines, result lines and contents with C++ db_bench's.
func TestOracleUniqueRandomShapes(t *testing.T) {
	compareListsWithOracle(t, uniqueShapeLists)
}
