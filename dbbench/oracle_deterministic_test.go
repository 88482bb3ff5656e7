package dbbench_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// lsmLevelLine is a level line of the deterministic fills' LSM dump.
var lsmLevelLine = regexp.MustCompile(`(?m)^Level\[(\d+)\]: `)

// foundCount is readrandom's found count.
var foundCount = regexp.MustCompile(`\((\d+) of (\d+) found\)`)

// lsmHeader heads the deterministic fills' LSM dump of one database.
var lsmHeader = regexp.MustCompile(`(?m)^---------------------- DB (\d+) LSM ---------------------$`)

// deterministicShape is what the deterministic fills' output says of the
// LSM, in terms both db_bench and this one reproduce whatever their
// memtables' exact sizes: for each database dumped (one, or each of
// --num_multi_db), the levels below L0 that hold a run and whether L0
// holds tables; and readrandom's found count. The tables per run follow
// from when memtables fill, which differs between the engines, and so are
// not compared.
func deterministicShape(t *testing.T, stdout string) string {
	t.Helper()
	found := foundCount.FindString(stdout)
	if found == "" {
		t.Fatalf("no readrandom result in:\n%s", stdout)
	}
	var b strings.Builder
	heads := lsmHeader.FindAllStringSubmatchIndex(stdout, -1)
	for i, h := range heads {
		end := len(stdout)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		var deep []string
		l0 := false
		for _, m := range lsmLevelLine.FindAllStringSubmatch(stdout[h[1]:end], -1) {
			if m[1] == "0" {
				l0 = true
			} else if !slices.Contains(deep, m[1]) {
				deep = append(deep, m[1])
			}
		}
		fmt.Fprintf(&b, "DB %s: L0=%v levels=%v; ", stdout[h[2]:h[3]], l0, deep)
	}
	return fmt.Sprintf("dumps %d: %s%s", len(heads), b.String(), found)
}

// TestOracleDeterministicFills runs fillseqdeterministic and
// filluniquerandomdeterministic in each compaction style and compares the
// LSM they build and what readrandom finds with C++ db_bench's.
func TestOracleDeterministicFills(t *testing.T) {
	requireOracle(t)
	common := []string{"--num=20000", "--seed=1", "--write_buffer_size=262144", "--disable_auto_compactions", "--compression_type=none"}
	cases := []struct {
		name string
		args []string
	}{
		{"leveled-seq", []string{"--benchmarks=fillseqdeterministic,readrandom", "--num_levels=3", "--max_bytes_for_level_multiplier=4"}},
		{"leveled-unique", []string{"--benchmarks=filluniquerandomdeterministic,readrandom", "--num_levels=4", "--max_bytes_for_level_multiplier=4"}},
		{"universal-unique", []string{"--benchmarks=filluniquerandomdeterministic,readrandom", "--num_levels=3", "--compaction_style=1"}},
		{"universal-seq", []string{"--benchmarks=fillseqdeterministic,readrandom", "--num_levels=4", "--compaction_style=1", "--universal_size_ratio=50"}},
		// FIFO with the default limit, 0: one round, then CompactRange
		// drops every table.
		{"fifo-drops-all", []string{"--benchmarks=fillseqdeterministic,readrandom", "--num_levels=1", "--compaction_style=2"}},
		// FIFO with num_levels other than 1: db_bench writes nothing.
		{"fifo-levels", []string{"--benchmarks=fillseqdeterministic,readrandom", "--compaction_style=2"}},
		// Several databases: the rounds write into all of them, and each
		// is compacted and dumped in turn. (C++ db_bench aborts on
		// filluniquerandomdeterministic with several: a database's
		// unique keys run out, "Assertion `next_ < num_' failed".)
		{"leveled-seq-multi", []string{"--benchmarks=fillseqdeterministic,readrandom", "--num_levels=3", "--max_bytes_for_level_multiplier=4", "--num_multi_db=2"}},
		{"leveled-seq-multi3", []string{"--benchmarks=fillseqdeterministic,readrandom", "--num_levels=4", "--max_bytes_for_level_multiplier=4", "--num_multi_db=3"}},
		{"universal-seq-multi", []string{"--benchmarks=fillseqdeterministic,readrandom", "--num_levels=3", "--compaction_style=1", "--num_multi_db=2"}},
		// FIFO with any --num_multi_db but 0, one database too: db_bench
		// writes nothing ("Doesn't support multiDB", ignored).
		{"fifo-multi", []string{"--benchmarks=fillseqdeterministic,readrandom", "--num_levels=1", "--compaction_style=2", "--num_multi_db=2"}},
		{"fifo-multi-one", []string{"--benchmarks=fillseqdeterministic,readrandom", "--num_levels=1", "--compaction_style=2", "--num_multi_db=1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append(slices.Clone(common), c.args...)
			want := runOracleFull(t, args)
			if want.code != 0 {
				t.Fatalf("C++ db_bench exit %d: %s", want.code, want.stderr)
			}
			wantShape := deterministicShape(t, want.stdout)
			for _, engine := range oracleEngines() {
				if engine == "pebble" {
					continue // refuses (TestDeterministicFillsNeedAutoCompactionsOff)
				}
				got := runOursFull(t, engine, args)
				if got.code != 0 {
					t.Fatalf("%s: exit %d: %s", engine, got.code, got.stderr)
				}
				if shape := deterministicShape(t, got.stdout); shape != wantShape {
					t.Errorf("%s: %s, C++ db_bench %s", engine, shape, wantShape)
				}
			}
		})
	}
}
