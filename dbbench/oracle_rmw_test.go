package dbbench_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
	"github.com/godbbench/godbbench/engine"
)

// rmwLists run the read-modify-write benchmarks after a fill that leaves
// some keys missing, so both the found and the not-found paths are taken,
// and randomreplacekeys; the readseq after them counts the keys they wrote.
var rmwLists = [][]string{
	{"--benchmarks=fillrandom,xorupdaterandom,readseq", "--num=2000", "--seed=1"},
	{"--benchmarks=fillrandom,appendrandom,readseq", "--num=2000", "--seed=1"},
	{"--benchmarks=fillrandom,xorupdaterandom,appendrandom,xorupdaterandom,readseq", "--num=3000", "--seed=3",
		"--value_size=40", "--writes=1500"},
	// randomreplacekeys starts from a fresh DB; the second list's narrow
	// distribution replaces most keys many times.
	{"--benchmarks=randomreplacekeys,readseq", "--num=2000", "--seed=1"},
	{"--benchmarks=fillseq,randomreplacekeys,readseq", "--num=5000", "--seed=2", "--numdistinct=300",
		"--stddev=80", "--use_single_deletes=false"},
}

// TestOracleReadModifyWrite runs each list with C++ db_bench and with every
// engine: the result lines' names, op counts and messages ("( updates:N
// found:M)") must match, and every engine must leave the same contents (the
// readseq checksum of keys and values); with the rocksdb engine built in,
// those contents must also be the C++ DB's, read through it.
func TestOracleReadModifyWrite(t *testing.T) { compareListsWithOracle(t, rmwLists) }

// compareListsWithOracle runs each benchmark list with C++ db_bench and
// with every engine, and compares the result lines and the DB contents the
// lists leave (see TestOracleReadModifyWrite).
func compareListsWithOracle(t *testing.T, lists [][]string) {
	t.Helper()
	compareListsWithOracleOn(t, lists, oracleEngines())
}

// compareListsWithOracleOn is compareListsWithOracle on the engines named.
func compareListsWithOracleOn(t *testing.T, lists [][]string, engines []string) {
	t.Helper()
	requireOracle(t)
	_, rocksdbErr := engine.Lookup("rocksdb")
	for i, list := range lists {
		args := append([]string{"--compression_type=none", "--progress_reports=false"}, list...)
		cppDir := filepath.Join(t.TempDir(), "cpp")
		want := summarize(runOracleIn(t, cppDir, args))
		if len(want) == 0 {
			t.Fatalf("list %d: no result lines from the oracle", i)
		}
		wantSum, wantN := "", int64(-1)
		if rocksdbErr == nil {
			wantSum, wantN = scanContents(t, "rocksdb", cppDir)
		} else {
			t.Logf("rocksdb engine not built in (-tags rocksdb): engines are compared with each other, not with the C++ DB")
		}
		for _, eng := range engines {
			dir := filepath.Join(t.TempDir(), eng)
			var out, errb bytes.Buffer
			if code := dbbench.Main(append([]string{"--engine=" + eng, "--db=" + dir}, args...), &out, &errb); code != 0 {
				t.Fatalf("%s: exit %d: %s", eng, code, errb.String())
			}
			if got := summarize(out.String()); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("engine %s list %d:\n--- ours\n%s\n--- C++ db_bench\n%s", eng, i,
					strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			sum, n := scanContents(t, eng, dir, prefixSizeFlags(list)...)
			if wantN < 0 {
				wantSum, wantN = sum, n // the first engine sets the contents the others must match
				continue
			}
			if sum != wantSum || n != wantN {
				t.Errorf("list %d: %s leaves %d entries with checksum %s; want %d with %s", i, eng, n, sum, wantN, wantSum)
			}
		}
	}
}
