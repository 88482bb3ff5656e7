package dbbench_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
)

// TestOracleUseExistingKeys fills a DB with 1,000 random keys, then reads
// it with --use_existing_keys and a --num the keys do not reach: key
// numbers index the DB's own keys, --num becomes their count for the key
// ranges while the op counts stay as --num made them, and every read
// finds its key; readtorowcache reads every existing key in order. The
// result lines of the second run must be C++ db_bench's, on every engine.
func TestOracleUseExistingKeys(t *testing.T) {
	requireOracle(t)
	fill := []string{"--benchmarks=fillrandom", "--num=1000", "--seed=1", "--compression_type=none", "--progress_reports=false"}
	read := []string{"--benchmarks=readrandom,seekrandom,readseq,readtorowcache", "--num=50000", "--seed=2",
		"--use_existing_db=true", "--use_existing_keys=true", "--row_cache_size=1048576",
		"--compression_type=none", "--progress_reports=false"}
	cppDir := filepath.Join(t.TempDir(), "cpp")
	runOracleIn(t, cppDir, fill)
	want := summarize(runOracleIn(t, cppDir, read))
	if len(want) != 4 || !strings.Contains(want[0], "found)") || !strings.HasPrefix(want[3], "readtorowcache ") {
		t.Fatalf("unexpected oracle lines %q", want)
	}
	for _, eng := range oracleEngines() {
		dir := filepath.Join(t.TempDir(), eng)
		for i, args := range [][]string{fill, read} {
			var out, errb bytes.Buffer
			if code := dbbench.Main(append([]string{"--engine=" + eng, "--db=" + dir}, args...), &out, &errb); code != 0 {
				t.Fatalf("%s run %d: exit %d: %s", eng, i, code, errb.String())
			}
			if i == 1 {
				if got := summarize(out.String()); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s:\n--- ours\n%s\n--- C++ db_bench\n%s", eng, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
		}
	}
}

// TestUseExistingKeysRefusals: db_bench's refusal without
// --use_existing_db, in its words, and this driver's of an empty DB and of
// keys another length than --key_size.
func TestUseExistingKeysRefusals(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	run := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := dbbench.Main(append([]string{"--engine=native", "--db=" + dir, "--seed=1"}, args...), &out, &errb)
		return code, errb.String()
	}
	for _, c := range []struct {
		args  []string
		words string
	}{
		{[]string{"--benchmarks=readrandom", "--use_existing_keys"}, "`-use_existing_db` must be true for `-use_existing_keys` to be settable"},
		{[]string{"--benchmarks=readtorowcache", "--row_cache_size=1000"}, "Please set use_existing_keys to true and specify a row cache size in readtorowcache benchmark\n"},
		{[]string{"--benchmarks=fillseq", "--num=0"}, ""},
		{[]string{"--benchmarks=readrandom", "--use_existing_db", "--use_existing_keys"}, "--use_existing_keys: the DB in " + dir + " holds no keys"},
		{[]string{"--benchmarks=fillseq", "--num=10", "--key_size=12"}, ""},
		{[]string{"--benchmarks=readrandom", "--use_existing_db", "--use_existing_keys"}, "is 12 bytes, and this db_bench makes every key --key_size=16 bytes"},
	} {
		code, stderr := run(c.args...)
		if c.words == "" {
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
			}
			continue
		}
		if code != 1 || !strings.Contains(stderr, c.words) {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 with %q", c.args, code, stderr, c.words)
		}
	}
}
