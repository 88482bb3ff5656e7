package dbbench_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/engine/enginetest"
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

// TestOracleSharedStatistics: like C++ db_bench, which hands its one
// statistics object to every DB it opens, the STATISTICS block counts the
// whole run: every database of --num_multi_db and the databases of the
// fresh-database benchmarks before the last. The counts of keys written
// and read and of writes with the WAL equal C++'s on every engine (the
// sums over the databases); with one thread the bytes read too, and the
// bytes written on the engines that count RocksDB's batch encoding (not
// pebble, statistics.go there) and the WAL's bytes on the rocksdb engine.
// With two threads RocksDB's write groups make the byte counts vary.
// resetstats resets none of it.
func TestOracleSharedStatistics(t *testing.T) {
	requireOracle(t)
	// The last list's --benchmarks replaces the first: resetstats leaves
	// the statistics alone, as RocksDB's DB::ResetStats does.
	for _, extra := range [][]string{{"--num_multi_db=3"}, {"--num_multi_db=2", "--threads=2"}, nil,
		{"--num_multi_db=2", "--benchmarks=fillseq,resetstats,readrandom"}} {
		args := append([]string{"--benchmarks=fillseq,fillrandom,readrandom,deleterandom,overwrite", "--num=1000",
			"--seed=1", "--statistics", "--compression_type=none"}, extra...)
		oracle := runOracleFull(t, args)
		want := enginetest.Tickers(oracle.stdout)
		if want["rocksdb.number.keys.written"] == 0 {
			t.Fatalf("%v: C++ db_bench counted no writes:\n%s", args, oracle.stderr)
		}
		oneThread := !slices.Contains(extra, "--threads=2")
		for _, eng := range oracleEngines() {
			run := runOursFull(t, eng, args)
			got := enginetest.Tickers(run.stdout)
			names := []string{"rocksdb.number.keys.written", "rocksdb.number.keys.read", "rocksdb.write.wal"}
			if oneThread {
				names = append(names, "rocksdb.bytes.read")
				if eng != "pebble" {
					names = append(names, "rocksdb.bytes.written")
				}
				if eng == "rocksdb" {
					names = append(names, "rocksdb.wal.bytes")
				}
			}
			for _, name := range names {
				if got[name] != want[name] {
					t.Errorf("%s %v: %s %d, C++ %d", eng, args, name, got[name], want[name])
				}
			}
			if strings.Contains(run.stderr, "STATISTICS block counts") {
				t.Errorf("%s %v: %s", eng, args, run.stderr)
			}
		}
	}
}
