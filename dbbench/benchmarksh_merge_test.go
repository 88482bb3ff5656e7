package dbbench_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// benchmarkShPaths are where RocksDB 7.8.3's tools/benchmark.sh may be,
// kept outside the project (../shared/ext/README.md from the project
// root, which a worktree elsewhere reaches by its absolute path).
var benchmarkShPaths = []string{"../../shared/ext/rocksdb-7.8.3/benchmark.sh", "/work/shared/ext/rocksdb-7.8.3/benchmark.sh"}

// benchmarkShMergeJobs are benchmark.sh's jobs that merge (with
// --merge_operator="put"), and the test column of their report.tsv rows.
var benchmarkShMergeJobs = []struct{ job, test string }{
	{"mergerandom", "mergerandom.t1.s0"},
	{"readwhilemerging", "readwhilemerging.t1"},
	{"fwdrangewhilemerging", "fwdrangewhilemerging.t1"},
	{"revrangewhilemerging", "revrangewhilemerging.t1"},
}

// reportNumericColumns are the report.tsv columns that must hold a number.
var reportNumericColumns = []string{"ops_sec", "mb_sec", "usec_op", "p50", "p99", "p99.9", "p99.99", "pmax",
	"stall%", "Nstall"}

// TestBenchmarkShMergeJobs runs benchmark.sh's merge jobs, unmodified,
// with this db_bench as ./db_bench on every engine at a small NUM_KEYS,
// and checks that each job leaves a report.tsv row whose figures are
// numbers.
func TestBenchmarkShMergeJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchmark.sh; skipped in -short mode")
	}
	script := ""
	for _, p := range benchmarkShPaths {
		if _, err := os.Stat(p); err == nil {
			script, _ = filepath.Abs(p)
			break
		}
	}
	if script == "" {
		t.Skipf("benchmark.sh not at %v", benchmarkShPaths)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	jobs := make([]string, len(benchmarkShMergeJobs))
	for i, j := range benchmarkShMergeJobs {
		jobs[i] = j.job
	}
	for _, eng := range oracleEngines() {
		t.Run(eng, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Symlink(self, filepath.Join(dir, "db_bench")); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			cmd := exec.Command("bash", script, strings.Join(jobs, ","), "--engine="+eng)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), asDBBenchEnv+"=1",
				"DB_DIR="+filepath.Join(dir, "db"), "WAL_DIR="+filepath.Join(dir, "wal"), "OUTPUT_DIR="+out,
				"NUM_KEYS=2000", "NUM_THREADS=1", "DB_BENCH_NO_SYNC=1")
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("benchmark.sh: %v\n%s", err, b)
			}
			rows := readReportTSV(t, filepath.Join(out, "report.tsv"))
			if len(rows) != len(benchmarkShMergeJobs) {
				t.Fatalf("%d report.tsv rows for %d jobs: %v", len(rows), len(benchmarkShMergeJobs), rows)
			}
			for i, row := range rows {
				if row["test"] != benchmarkShMergeJobs[i].test {
					t.Errorf("row %d is %q, want %q", i, row["test"], benchmarkShMergeJobs[i].test)
				}
				for _, c := range reportNumericColumns {
					if _, err := strconv.ParseFloat(row[c], 64); err != nil {
						t.Errorf("%s: %s is %q, not a number", row["test"], c, row[c])
					}
				}
			}
		})
	}
}

// readReportTSV returns report.tsv's rows by column name, without the
// comment lines and the header.
func readReportTSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var header []string
	var rows []map[string]string
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if header == nil {
			header = fields
			continue
		}
		row := map[string]string{}
		for i, f := range fields {
			if i < len(header) {
				row[header[i]] = f
			}
		}
		rows = append(rows, row)
	}
	return rows
}
