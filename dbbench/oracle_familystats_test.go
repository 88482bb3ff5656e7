package dbbench_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/rocksfmt"
)

// intervalSections returns, from a run's output, what each
// --stats_per_interval dump holds, in order: "cf NAME" for the
// compaction stats of family NAME, "db" for DB stats (which only
// rocksdb.stats holds), and the benchmark names of the result lines.
func intervalSections(out string) []string {
	var seq []string
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		switch {
		case strings.HasPrefix(l, "** Compaction Stats [") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "Level "):
			seq = append(seq, "cf "+strings.TrimSuffix(strings.TrimPrefix(l, "** Compaction Stats ["), "] **"))
		case l == "** DB Stats **":
			seq = append(seq, "db")
		case len(f) > 2 && f[1] == ":" && !strings.Contains(l, "..."):
			seq = append(seq, f[0])
		}
	}
	return seq
}

// firstFamilyDump returns the first dump of family name's rocksdb.cfstats
// in out: from its compaction stats title to its file read latency title.
func firstFamilyDump(out, name string) string {
	start := strings.Index(out, "** Compaction Stats ["+name+"] **\nLevel")
	if start < 0 {
		return ""
	}
	end := "** File Read Latency Histogram By Level [" + name + "] **\n"
	n := strings.Index(out[start:], end)
	if n < 0 {
		return ""
	}
	return out[start : start+n+len(end)]
}

// TestOracleFamilyIntervalStats: with column families, the interval dumps
// of the benchmarks that hand C++ db_bench's FinishedOps their families
// (fills, readrandom, seekrandom) print each family created so far, as
// rocksdb.cfstats in RocksDB's layout, and those of the others (readseq)
// print the DB's rocksdb.stats.
func TestOracleFamilyIntervalStats(t *testing.T) {
	requireOracle(t)
	args := []string{"--compression_type=none", "--benchmarks=fillrandom,readrandom,readseq,seekrandom",
		"--num=3000", "--seed=1", "--stats_interval=500", "--stats_per_interval=1",
		"--num_column_families=3", "--num_hot_column_families=2"}
	oracle := runOracleFull(t, args)
	want := intervalSections(oracle.stderr + oracle.stdout)
	if !slices.Contains(want, "cf column_family_name_000001") || !slices.Contains(want, "db") {
		t.Fatalf("C++ db_bench's dumps do not show a family's stats and the DB's: %v", want)
	}
	wantDump := firstFamilyDump(oracle.stderr, "column_family_name_000001")
	for _, eng := range familyEngines() {
		run := runOursFull(t, eng, args)
		if got := intervalSections(run.stderr + run.stdout); !slices.Equal(got, want) {
			t.Errorf("%s: interval dumps differ:\nours %v\nC++  %v", eng, got, want)
		}
		got := firstFamilyDump(run.stderr, "column_family_name_000001")
		for _, d := range rocksfmt.LayoutDiff(got, wantDump) {
			t.Errorf("%s: %s", eng, d)
		}
	}
}
