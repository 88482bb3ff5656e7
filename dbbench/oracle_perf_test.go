package dbbench_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// perfContextFields lists, per PERF_CONTEXT block in a db_bench stdout, the
// counter names in order (the values differ from run to run).
func perfContextFields(out string) [][]string {
	var blocks [][]string
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if !strings.HasSuffix(l, "PERF_CONTEXT:") || i+1 == len(lines) {
			continue
		}
		var names []string
		for _, f := range strings.Split(lines[i+1], ", ") {
			name, _, ok := strings.Cut(f, " = ")
			if !ok {
				break
			}
			names = append(names, name)
		}
		blocks = append(blocks, names)
	}
	return blocks
}

// TestOraclePerfContext: with --perf_level=2 every benchmark's result
// carries RocksDB's perf context, as C++ db_bench prints it; with the rocksdb
// engine ours prints the same counters in the same order.
func TestOraclePerfContext(t *testing.T) {
	requireOracle(t)
	if _, err := engine.Lookup("rocksdb"); err != nil {
		t.Skip("rocksdb engine not built in (-tags rocksdb)")
	}
	args := []string{"--benchmarks=fillseq,readrandom,readseq", "--num=2000", "--seed=3", "--perf_level=2", "--progress_reports=false"}
	want := perfContextFields(runOracle(t, args))
	got := perfContextFields(runOurs(t, "rocksdb", args))
	if len(want) != 3 || len(want[0]) < 20 {
		t.Fatalf("C++ db_bench printed %d PERF_CONTEXT blocks (%v)", len(want), want)
	}
	if len(got) != len(want) {
		t.Fatalf("%d PERF_CONTEXT blocks, C++ db_bench printed %d", len(got), len(want))
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("PERF_CONTEXT block %d: counters\n%v\nC++ db_bench:\n%v", i, got[i], want[i])
		}
	}
}
