package benchmarksh

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/buildinfo"
)

// TestJobsReportNumbers runs benchmark.sh's jobs with our db_bench at a
// small NUM_KEYS on each engine of testEngines and checks that the script
// succeeds and writes one report.tsv row per job, each with numbers in the
// throughput, percentile and stall fields. -short runs four of the jobs
// on the native engine: the vector-memtable load, a random write, a read
// and a scan while writing.
func TestJobsReportNumbers(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	script := FindScript(wd)
	if script == "" {
		t.Skipf("SKIPPING: RocksDB's benchmark.sh (%s) is not beside this checkout or above it", ScriptPath)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("SKIPPING: benchmark.sh needs bash, which is not installed")
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("SKIPPING: benchmark.sh runs every job under /usr/bin/time, which is not installed")
	}
	engines, jobs, numKeys := testEngines, Jobs, "5000"
	if testing.Short() {
		engines, jobs, numKeys = []string{"native"}, []string{"bulkload", "overwrite", "readrandom", "fwdrangewhilewriting"}, "2000"
	}
	bin := filepath.Join(t.TempDir(), "db_bench")
	build := exec.Command("go", "build", "-tags="+testBuildTags, "-o", bin, "./cmd/db_bench")
	build.Dir = filepath.Join(wd, "..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/db_bench: %v\n%s", err, out)
	}
	for _, engine := range engines {
		t.Run(engine, func(t *testing.T) { runJobs(t, script, bin, engine, jobs, numKeys) })
	}
}

// runJobs runs jobs in one benchmark.sh invocation on engine and checks
// report.tsv.
func runJobs(t *testing.T, script, bin, engine string, jobs []string, numKeys string) {
	cfg := &Config{
		Script:  script,
		DBBench: bin,
		WorkDir: t.TempDir(),
		Engine:  engine,
		Jobs:    jobs,
		// No fsync per write (DB_BENCH_NO_SYNC), 1 MiB memtables so the
		// loads flush several, two threads for the mixed jobs.
		Env: []string{"NUM_KEYS=" + numKeys, "NUM_THREADS=2", "DB_BENCH_NO_SYNC=1", "CACHE_SIZE=67108864",
			"WRITE_BUFFER_SIZE_MB=1", "TARGET_FILE_SIZE_BASE_MB=1", "MAX_BYTES_FOR_LEVEL_BASE_MB=4"},
	}
	out, err := Run(cfg)
	if err != nil {
		t.Fatalf("%v\n%s", err, tail(out, 4000))
	}
	rows, err := ReadReport(cfg.ReportPath())
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(jobs) {
		t.Fatalf("report.tsv has %d rows for %d jobs\n%s", len(rows), len(jobs), tail(out, 4000))
	}
	for i, job := range jobs {
		if test := rows[i]["test"]; !strings.HasPrefix(test, TestName(job)) {
			t.Errorf("row %d is test %q, want job %s", i, test, job)
		}
		if err := CheckRow(rows[i]); err != nil {
			t.Error(err)
		}
		// The version column comes from the LOG's "RocksDB version:" line,
		// which tells the engines apart: native-<ours>, pebble-<Pebble's>,
		// and RocksDB's bare version number.
		if v := rows[i]["version"]; !versionNamesEngine(engine, v) {
			t.Errorf("row %d: version %q does not name engine %s", i, v, engine)
		}
	}
}

// versionNamesEngine reports whether v, a report.tsv version, is the one
// engine writes into its LOG.
func versionNamesEngine(engine, v string) bool {
	switch engine {
	case "native":
		return v == "native-"+buildinfo.Version
	case "pebble":
		return strings.HasPrefix(v, "pebble-") && len(v) > len("pebble-")
	default:
		return v != "" && v[0] >= '0' && v[0] <= '9'
	}
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

func TestCheckRow(t *testing.T) {
	good := Row{"test": "readrandom.t2"}
	for _, f := range NumericFields {
		good[f] = "1.5"
	}
	if err := CheckRow(good); err != nil {
		t.Fatalf("CheckRow(all numeric) = %v", err)
	}
	// What the script writes for a skip line and for a failed job.
	bad := Row{"test": "x", "ops_sec": "implemented", "mb_sec": "this"}
	for _, f := range NumericFields[2:] {
		bad[f] = "1"
	}
	err := CheckRow(bad)
	if err == nil || !strings.Contains(err.Error(), `ops_sec="implemented"`) || !strings.Contains(err.Error(), `mb_sec="this"`) {
		t.Fatalf("CheckRow(skip-line row) = %v", err)
	}
	delete(good, "stall%")
	if err := CheckRow(good); err == nil {
		t.Fatal("CheckRow accepted a row without stall%")
	}
}

func TestReadReport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.tsv")
	text := "# ops_sec - operations per second\nops_sec\tmb_sec\ttest\n10\t2.5\tbulkload\nfailed\t\tfwdrange.t2\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadReport(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0]["ops_sec"] != "10" || rows[1]["test"] != "fwdrange.t2" || rows[1]["mb_sec"] != "" {
		t.Fatalf("rows = %v", rows)
	}
	if err := os.WriteFile(path, []byte("a\tb\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadReport(path); err == nil {
		t.Fatal("a short row was accepted")
	}
}
