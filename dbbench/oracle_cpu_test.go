// The CPU benchmarks do not depend on the engine, so this comparison runs
// once, in the untagged test run, not again under -tags rocksdb.

//go:build !rocksdb

package dbbench_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
)

// The CPU benchmarks do a fixed amount of work whatever --num and
// --duration say (5000 MiB hashed per checksum benchmark, 1 GiB compressed
// or uncompressed, 100,000 acquireload operations), so each list below runs
// once on each side. Measured on the 2-core development machine under load
// (C++ / ours): hash list 40 s / 15 s, snappy list about 6 s / 5 s, none
// list well under a second.
var oracleCPULists = [][]string{
	// --block_size=4095 makes the operation count odd (1,280,313), so the
	// sums of hashes printed to stderr pin down every block's hash.
	{"--benchmarks=crc32c,xxhash,xxhash64,xxh3,acquireload", "--block_size=4095"},
	// snappy is the codec whose output sizes match libsnappy's byte for
	// byte; the output share in the message must be equal.
	{"--benchmarks=compress,uncompress", "--compression_type=snappy", "--compression_ratio=0.25", "--block_size=8192"},
	// No compression: both fail, after one operation and after none.
	{"--benchmarks=compress,uncompress", "--compression_type=none"},
}

// checksumSums picks the "... val=0x..." lines the checksum benchmarks print.
var checksumSums = regexp.MustCompile(`\.\.\. val=0x[0-9a-f]+`)

func TestOracleCPUBenchmarks(t *testing.T) {
	requireOracle(t)
	for i, args := range oracleCPULists {
		args := append([]string{"--seed=1", "--num=1000"}, args...)

		cmd := exec.Command(oracleBinary, append([]string{"--db=" + filepath.Join(t.TempDir(), "db")}, args...)...)
		var cout, cerr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &cout, &cerr
		if err := cmd.Run(); err != nil {
			t.Fatalf("C++ db_bench %v: %v\n%s\n%s", args, err, cout.String(), cerr.String())
		}
		var out, errb bytes.Buffer
		full := append([]string{"--engine=pebble", "--db=" + filepath.Join(t.TempDir(), "db")}, args...)
		if code := dbbench.Main(full, &out, &errb); code != 0 {
			t.Fatalf("our db_bench %v exited %d\n%s\n%s", full, code, out.String(), errb.String())
		}

		want, got := summarize(cout.String()), summarize(out.String())
		if len(want) == 0 {
			t.Errorf("list %d: no result lines from the oracle", i)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("list %d %v:\n--- ours\n%s\n--- C++ db_bench\n%s", i, args,
				strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		wantSums := checksumSums.FindAllString(cerr.String(), -1)
		gotSums := checksumSums.FindAllString(errb.String(), -1)
		if strings.Join(gotSums, " ") != strings.Join(wantSums, " ") {
			t.Errorf("list %d: checksum sums on stderr: ours %v, C++ db_bench %v", i, gotSums, wantSums)
		}
	}
}
