package dbbench_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"
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

// TestOracleStatisticsNames: with --statistics, the rocksdb engine prints
// the STATISTICS block C++ db_bench 7.8.3 prints, every ticker and
// histogram by name, in order.
func TestOracleStatisticsNames(t *testing.T) {
	requireRocksDBOracle(t)
	for _, extra := range [][]string{nil, {"--stats_level=4"}} {
		args := append([]string{"--benchmarks=fillseq,readrandom", "--num=1000", "--seed=1", "--statistics"}, extra...)
		want := statisticsNames(runOracleFull(t, args).stdout)
		got := statisticsNames(runOursFull(t, "rocksdb", args).stdout)
		if len(want) < 100 {
			t.Fatalf("%v: C++ db_bench printed %d statistics lines", args, len(want))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%v: STATISTICS names differ: ours %d lines, C++ %d\nours: %v\nC++:  %v", args, len(got), len(want), got, want)
		}
	}
}
