package dbbench_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/tools/results"
)

// TestOracleDBContents checks that, for the same --seed, every engine leaves
// the same database contents as C++ db_bench: C++ db_bench writes one DB, each
// of our engines writes its own with the same command, and a full readseq of
// each (the C++ DB read through our rocksdb engine) must visit the same number
// of entries with the same order-independent checksum of keys and values.
// Needs the rocksdb engine (-tags rocksdb) to read the C++ DB.
func TestOracleDBContents(t *testing.T) {
	requireOracle(t)
	if _, err := engine.Lookup("rocksdb"); err != nil {
		t.Skip("rocksdb engine not built in (-tags rocksdb); cannot read the C++ DB")
	}
	write := []string{"--benchmarks=fillrandom,deleterandom,overwrite", "--num=6000", "--deletes=2000", "--writes=3000",
		"--seed=9", "--compression_type=none", "--progress_reports=false"}
	cppDir := filepath.Join(t.TempDir(), "cpp")
	cmd := exec.Command(oracleBinary, append([]string{"--db=" + cppDir}, write...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("C++ db_bench: %v\n%s", err, out)
	}
	wantSum, wantN := scanContents(t, "rocksdb", cppDir)
	t.Logf("C++ db_bench DB: %d entries, checksum %s", wantN, wantSum)
	if wantN == 0 || wantSum == "" {
		t.Fatalf("empty scan of the C++ DB: %d entries", wantN)
	}
	for _, eng := range oracleEngines() {
		dir := filepath.Join(t.TempDir(), eng)
		var out, errb bytes.Buffer
		if code := dbbench.Main(append([]string{"--engine=" + eng, "--db=" + dir}, write...), &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", eng, code, errb.String())
		}
		sum, n := scanContents(t, eng, dir)
		if sum != wantSum || n != wantN {
			t.Errorf("%s leaves %d entries with checksum %s; C++ db_bench leaves %d with %s", eng, n, sum, wantN, wantSum)
		}
	}
}

// scanContents reads the DB in dir with a full readseq on engine eng and
// returns the readseq's order-independent checksum of keys and values and
// its entry count. extra are more flags (a --merge_operator).
func scanContents(t *testing.T, eng, dir string, extra ...string) (string, int64) {
	t.Helper()
	js := filepath.Join(t.TempDir(), "scan.jsonl")
	var out, errb bytes.Buffer
	args := append([]string{"--engine=" + eng, "--db=" + dir, "--use_existing_db=1", "--benchmarks=readseq",
		"--seed=1", "--progress_reports=false", "--report_json=" + js}, extra...)
	if code := dbbench.Main(args, &out, &errb); code != 0 {
		t.Fatalf("scan of %s with %s: exit %d: %s", dir, eng, code, errb.String())
	}
	recs, err := results.ReadJSON(js)
	if err != nil || len(recs) != 1 {
		t.Fatalf("scan records: %v %v", recs, err)
	}
	return recs[0].Checksum, recs[0].Found
}
