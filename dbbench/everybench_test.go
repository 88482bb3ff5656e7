package dbbench_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
)

// everyBenchmarkFlags are the flags a benchmark needs beyond a small
// fill to run at all; truthDB stands for a DB filled as the benchmark's.
var everyBenchmarkFlags = map[string][]string{
	"readwhilemerging":       {"--merge_operator=put"},
	"seekrandomwhilemerging": {"--merge_operator=put"},
	"mergerandom":            {"--merge_operator=uint64add"},
	"readrandommergerandom":  {"--merge_operator=stringappend"},
	"readrandomoperands":     {"--merge_operator=put"},
	"getmergeoperands":       {"--merge_operator=sortlist"},
	"verify":                 {"--truth_db=" + truthDB},
	"verifyfilechecksums":    {"--file_checksum"},
	// The fill before it records the trace replay replays.
	"replay": {"--trace_file=" + tempPath},
	// restore needs a backup first (a later --benchmarks wins).
	"backup":  {"--backup_dir=" + tempPath},
	"restore": {"--benchmarks=fillseq,backup,restore", "--backup_dir=" + tempPath, "--restore_dir=" + tempPath},
	// Its keys come from the DB, which must exist before the run.
	"readtorowcache":    {"--db=" + truthDB, "--use_existing_db", "--use_existing_keys", "--row_cache_size=1048576"},
	"randomtransaction": {"--transaction_db=1", "--threads=4"},
	// db_bench refuses them with auto compactions; 64 keys make one run,
	// which fills the one level below L0.
	"fillseqdeterministic":          {"--disable_auto_compactions", "--num_levels=2"},
	"filluniquerandomdeterministic": {"--disable_auto_compactions", "--num_levels=2"},
}

// everyBenchmarkWants is a line a benchmark's stdout must hold: the
// benchmark's own check passing.
var everyBenchmarkWants = map[string]string{
	"randomtransaction": "RandomTransactionVerify Success.\n",
}

// truthDB stands for a DB filled beforehand (fillseq, the same --num).
const truthDB = "TRUTH_DB"

// tempPath stands for a path in a fresh temporary directory.
const tempPath = "TEMP_PATH"

// inChildProcess are the benchmarks run in a child process, as C++
// db_bench runs, and why.
var inChildProcess = map[string]string{
	"getmergeoperands": "RocksDB's sortlist operator parses an operand up to the next NUL or comma, " +
		"past its end, and in a process whose heap holds old data it may meet a comma and a " +
		"non-digit and abort (std::stoi)",
}

// propertyGaps are the properties, by name prefix, an engine does not
// have, which a benchmark prints as db_bench prints them: "(failed)".
var propertyGaps = map[string]string{
	// Pebble counts memtables, not their entries.
	"memstats/pebble": "rocksdb.num-entries-",
}

// unexpectedFailedProperty returns the first "(failed)" line of out that
// is not a known gap (gapPrefix; "" for none).
func unexpectedFailedProperty(out, gapPrefix string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "(failed)") && (gapPrefix == "" || !strings.HasPrefix(l, gapPrefix)) {
			return l
		}
	}
	return ""
}

// TestEveryBenchmarkOnEveryEngine runs each benchmark the registry builds
// (this project's too, but for profiles, which has its own tests) after a
// small fill, on every engine of this binary (the rocksdb engine
// with -tags rocksdb): each must exit 0 and none may print a property as
// "(failed)". docs/BENCHMARK_LIST.md, which says every built benchmark
// runs on every engine, rests on this test.
func TestEveryBenchmarkOnEveryEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every benchmark on every engine; the plain run covers it")
	}
	for _, row := range dbbench.BenchmarkTable() {
		if row.Kind == "not built" || row.Name == "profiles" { // profiles has its own tests
			continue
		}
		for _, eng := range oracleEngines() {
			common := []string{"--engine=" + eng, "--num=64", "--seed=1", "--progress_reports=false"}
			var extra []string
			for _, f := range everyBenchmarkFlags[row.Name] {
				if strings.HasSuffix(f, truthDB) {
					truth := filepath.Join(t.TempDir(), "truth")
					if code, _, stderr := runMain(t, append(common, "--db="+truth, "--benchmarks=fillseq")...); code != 0 {
						t.Fatalf("filling the truth DB on %s: %s", eng, stderr)
					}
					f = strings.TrimSuffix(f, truthDB) + truth
				}
				if strings.HasSuffix(f, tempPath) {
					f = strings.TrimSuffix(f, tempPath) + filepath.Join(t.TempDir(), "path")
				}
				extra = append(extra, f)
			}
			args := append(append(common, "--db="+filepath.Join(t.TempDir(), "db"), "--benchmarks=fillseq,"+row.Name), extra...)
			var code int
			var stdout, stderr string
			if why := inChildProcess[row.Name]; why != "" {
				code, stdout = runOursSubprocess(t, args)
				stderr = stdout
			} else {
				code, stdout, stderr = runMain(t, args...)
			}
			if _, refused := row.Refused[eng]; refused {
				if code != 1 || !strings.Contains(stderr, eng+" engine") {
					t.Errorf("%s on %s, which refuses it: exit %d, want 1 naming the engine\nstderr:\n%s", row.Name, eng, code, stderr)
				}
				continue
			}
			if code != 0 || unexpectedFailedProperty(stdout, propertyGaps[row.Name+"/"+eng]) != "" ||
				!strings.Contains(stdout, everyBenchmarkWants[row.Name]) {
				t.Errorf("%s on %s: exit %d\nstdout:\n%s\nstderr:\n%s", row.Name, eng, code, stdout, stderr)
			}
		}
	}
}
