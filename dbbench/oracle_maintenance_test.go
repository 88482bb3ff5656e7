package dbbench_test

import (
	"regexp"
	"slices"
	"testing"
)

// maskApproxSize masks approximatesizerandom's mean range size, which is
// the native and pebble engines' own estimate of their own files, unless
// it is 0 (nothing in files yet), which every engine must print as C++
// does. The rocksdb engine's is RocksDB's estimate of the same files and
// must equal C++'s.
var maskApproxSize = regexp.MustCompile(`\(Avg approx size=[1-9][0-9.e+]*\)`)

type maintenanceCase struct {
	name string
	args []string
	// engines, when set, limits the case to these: compact0 and compact1
	// name levels, and Pebble places a compaction's output in its last
	// level where RocksDB and the native engine use the next one.
	engines []string
}

var maintenanceCases = []maintenanceCase{
	{name: "memtable-only", args: []string{"--benchmarks=fillseq,approximatesizerandom,compact0,compact1,verifychecksum,stats_history,readseq",
		"--num=2000", "--seed=1"}},
	{name: "flushed", args: []string{"--benchmarks=fillrandom,flush,approximatesizerandom,compact0,compact1,verifychecksum,stats_history,readseq",
		"--num=3000", "--seed=2", "--batch_size=3"}},
	{name: "file-checksums-off", args: []string{"--benchmarks=fillseq,flush,verifyfilechecksums,readseq", "--num=500", "--seed=1"}},
	{name: "file-checksums-on", args: []string{"--benchmarks=fillseq,flush,verifyfilechecksums,readseq", "--num=500", "--seed=1", "--file_checksum"}},
	{name: "levels", args: []string{"--benchmarks=fillrandom,compactall,overwrite,flush,compact1,compact0,compact1,readseq",
		"--num=3000", "--seed=3", "--disable_auto_compactions"}, engines: []string{"native", "rocksdb"}},
}

// TestOracleMaintenance compares the maintenance benchmarks' stdout and
// stderr with C++ db_bench's: the compact0/compact1 lines, the
// entries_per_batch line and result line of approximatesizerandom (the
// size masked), verifychecksum's result line, the empty stats history,
// and verifyfilechecksums' refusal without --file_checksum (exit 1).
func TestOracleMaintenance(t *testing.T) {
	requireOracle(t)
	for _, c := range maintenanceCases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"--compression_type=none"}, c.args...)
			want := runOracleFull(t, args)
			wantMasked := maskApproxSize.ReplaceAllString(want.stdout, "(Avg approx size=A)")
			ran := 0
			for _, engine := range oracleEngines() {
				if c.engines != nil && !slices.Contains(c.engines, engine) {
					continue
				}
				ran++
				got := runOursFull(t, engine, args)
				wantStdout := want.stdout
				if engine != "rocksdb" {
					got.stdout = maskApproxSize.ReplaceAllString(got.stdout, "(Avg approx size=A)")
					wantStdout = wantMasked
				}
				if got.code != want.code {
					t.Errorf("%s: exit %d, C++ db_bench %d", engine, got.code, want.code)
				}
				if got.stdout != wantStdout {
					t.Errorf("%s %v: stdout differs\n%s", engine, args, lineDiff(got.stdout, wantStdout))
				}
				if got.stderr != want.stderr {
					t.Errorf("%s %v: stderr differs\n%s", engine, args, lineDiff(got.stderr, want.stderr))
				}
			}
			if ran == 0 {
				t.Fatalf("no engine of this binary ran the case")
			}
		})
	}
}
