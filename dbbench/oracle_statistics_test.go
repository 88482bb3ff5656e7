package dbbench_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// statisticsName matches a line of the STATISTICS block: a ticker
// ("rocksdb.block.cache.miss COUNT : 3") or a histogram
// ("rocksdb.db.get.micros P50 : ...").
var statisticsName = regexp.MustCompile(`^(rocksdb\.[a-z0-9._-]+) (COUNT|P50) :`)

// statisticsNames returns the ticker and histogram names of the
// STATISTICS block in out, in order.
func statisticsNames(out string) []string {
	_, block, ok := strings.Cut(out, "STATISTICS:\n")
	if !ok {
		return nil
	}
	var names []string
	for _, l := range strings.Split(block, "\n") {
		if m := statisticsName.FindStringSubmatch(l); m != nil {
			names = append(names, m[1]+" "+m[2])
		}
	}
	return names
}

// TestOracleStatisticsNames: with --statistics, every engine prints the
// STATISTICS block C++ db_bench 7.8.3 prints, every ticker and histogram
// by name, in order (the rocksdb engine when built with it).
func TestOracleStatisticsNames(t *testing.T) {
	requireOracle(t)
	engines := []string{"native", "pebble"}
	if slices.Contains(engine.Names(), "rocksdb") {
		engines = append(engines, "rocksdb")
	}
	for _, extra := range [][]string{nil, {"--stats_level=4"}} {
		args := append([]string{"--benchmarks=fillseq,readrandom", "--num=1000", "--seed=1", "--statistics"}, extra...)
		want := statisticsNames(runOracleFull(t, args).stdout)
		if len(want) < 100 {
			t.Fatalf("%v: C++ db_bench printed %d statistics lines", args, len(want))
		}
		for _, eng := range engines {
			got := statisticsNames(runOursFull(t, eng, args).stdout)
			if !slices.Equal(got, want) {
				t.Errorf("%s %v: STATISTICS names differ: ours %d lines, C++ %d\nours: %v\nC++:  %v", eng, args, len(got), len(want), got, want)
			}
		}
	}
}
