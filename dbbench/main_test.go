package dbbench_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
	"github.com/godbbench/godbbench/dbbench/jsonrecord"
)

func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = dbbench.Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestErrorsInDbBenchWords(t *testing.T) {
	db := "--db=" + filepath.Join(t.TempDir(), "db")
	cases := []struct {
		args   []string
		stderr string
		stdout string
	}{
		{[]string{db, "--engine=pebble", "--num=100", "--seed=1", "--benchmarks=fillseq,bogus"}, "unknown benchmark 'bogus'\n", "fillseq      :"},
		{[]string{db, "--engine=pebble", "--compression_type=foo"}, "Cannot parse compression type 'foo'\n", ""},
		{[]string{db, "--engine=pebble", "--value_size_distribution_type=odd"}, "", "Cannot parse distribution type 'odd'\n"},
		{[]string{db, "--num=abc"}, "ERROR: illegal value 'abc' specified for int64 flag 'num'\n", ""},
		{[]string{db, "--no_such_flag=1"}, "ERROR: unknown command line flag 'no_such_flag'\n", ""},
		{[]string{db, "--engine=pebble", "--compression_ratio=2"}, "compression_ratio should be between 0 and 1\n", ""},
		{[]string{db, "--engine=pebble", "--prefix_size=20"}, "prefix size is larger than key size", ""},
		{[]string{db, "--engine=pebble", "--num=10", "--seed=1", "--benchmarks=readrandom]"}, "unknown benchmark arguments 'readrandom]'\n", ""},
		{[]string{db, "--engine=nosuch"}, "unknown engine \"nosuch\"", ""},
	}
	for _, c := range cases {
		code, out, errs := runMain(t, c.args...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1 (stderr %q)", c.args, code, errs)
		}
		if c.stderr != "" && !strings.Contains(errs, c.stderr) {
			t.Errorf("%v: stderr %q lacks %q", c.args, errs, c.stderr)
		}
		if c.stdout != "" && !strings.Contains(out, c.stdout) {
			t.Errorf("%v: stdout %q lacks %q", c.args, out, c.stdout)
		}
	}
}

func TestHeaderGolden(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	code, out, errs := runMain(t, "--db="+db, "--engine=pebble", "--benchmarks=", "--seed=1", "--num=100000",
		"--compression_ratio=0.5", "--prefix_size=4", "--keys_per_prefix=10")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want, err := os.ReadFile("testdata/header_pebble.txt")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("header differs:\n%s\n--- want\n%s", out, want)
	}
	lines := strings.Split(errs, "\n")
	if !strings.HasPrefix(lines[0], "Pebble:     version ") {
		t.Errorf("version line %q", lines[0])
	}
	if !regexp.MustCompile(`^Date:       [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \d{4}$`).MatchString(lines[1]) {
		t.Errorf("Date line %q", lines[1])
	}
	_, out, _ = runMain(t, "--db="+db, "--engine=pebble", "--benchmarks=", "--seed=1",
		"--value_size_distribution_type=uniform", "--value_size_min=10", "--value_size_max=1000", "--key_size=10", "--num=1000", "--compression_ratio=0.3")
	for _, l := range []string{"Values:     505 avg bytes each (152 bytes after compression)\n", "Values Distribution: uniform (min: 10, max: 1000)\n", "RawSize:    0.5 MB (estimated)\n", "FileSize:   0.2 MB (estimated)\n"} {
		if !strings.Contains(out, l) {
			t.Errorf("missing %q in\n%s", l, out)
		}
	}
}

func TestRepeatsAndJSON(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "r.jsonl")
	code, out, errs := runMain(t, "--db="+filepath.Join(dir, "db"), "--engine=pebble", "--seed=3", "--num=2000",
		"--benchmarks=fillseq,readseq[X2-W1],readrandom,stats", "--report_json="+js, "--histogram", "--progress_reports=false")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, l := range []string{"Warming up benchmark by running 1 times\n", "Running benchmark for 2 times\n",
		"readseq [AVG 2 runs] : ", "readseq [AVG    2 runs] : ", "readseq [MEDIAN 2 runs] : ",
		"Microseconds per read:\nCount: 2000 Average: ", "Microseconds per write:\n", "\nUptime(secs): "} {
		if !strings.Contains(out, l) {
			t.Errorf("missing %q", l)
		}
	}
	if n := strings.Count(out, "DB path: ["); n != 3 {
		t.Errorf("DB path printed %d times, want 3 (once per method item)", n)
	}
	f, err := os.Open(js)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []jsonrecord.Record
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r jsonrecord.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if len(recs) != 5 {
		t.Fatalf("%d records, want 5 (fillseq, warm-up, 2 runs, readrandom)", len(recs))
	}
	if !recs[1].Warmup || recs[2].Warmup || recs[2].Found != 2000 || recs[2].Checksum == "" {
		t.Fatalf("records: %+v", recs[1:])
	}
	// Full scans of the same data fold to the same checksum.
	if recs[2].Checksum != recs[3].Checksum || recs[1].Checksum != recs[2].Checksum {
		t.Fatalf("checksums differ across identical scans: %s %s %s", recs[1].Checksum, recs[2].Checksum, recs[3].Checksum)
	}
	if recs[4].Found != 2000 || recs[4].Latency["read"].Count != 2000 || recs[4].Checksum == recs[2].Checksum {
		t.Fatalf("readrandom record: %+v", recs[4])
	}
}

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

// TestVersionLines: --version keeps C++ db_bench's line first, for the
// scripts that read it, and says which godbbench this is on the next.
func TestVersionLines(t *testing.T) {
	code, stdout, _ := runMain(t, "--version")
	if code != 0 || !regexp.MustCompile(`^db_bench version 7\.8\.3\ngodbbench version \d+\.\d+\.\d+ \(commit [^)]+\)\n$`).MatchString(stdout) {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
}
