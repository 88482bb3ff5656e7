package dbbench_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScanErrorEndsBenchmark: scans over a damaged table end with the
// error and exit 1, never a result line over partial data. C++ db_bench
// 7.8.3 stops readseq and readreverse early with exit 0 and aborts
// seekrandom on an assertion.
func TestScanErrorEndsBenchmark(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	common := []string{"--db=" + dir, "--num=20000", "--compression_type=none", "--write_buffer_size=262144", "--seed=1"}
	if code, _, stderr := runMain(t, append(common, "--benchmarks=fillseq,compact")...); code != 0 {
		t.Fatalf("fill: exit %d: %s", code, stderr)
	}
	tables, err := filepath.Glob(filepath.Join(dir, "*.sst"))
	if err != nil || len(tables) == 0 {
		t.Fatalf("no tables (%v)", err)
	}
	for _, path := range tables {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/3] ^= 0x55
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range []string{"readseq", "readreverse", "seekrandom"} {
		code, stdout, stderr := runMain(t, append(common, "--use_existing_db=1", "--seek_nexts=10", "--benchmarks="+b)...)
		if code != 1 || !strings.Contains(stderr, "corruption") {
			t.Errorf("%s: exit %d, stderr %q", b, code, stderr)
		}
		if strings.Contains(stdout, b+" ") {
			t.Errorf("%s printed a result line: %s", b, stdout)
		}
	}
}
