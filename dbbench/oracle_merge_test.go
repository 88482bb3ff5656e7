package dbbench_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
)

// mergeLists run the merge benchmarks with the operators they are used
// with (benchmark.sh's put, uint64add on 8-byte values) after a fill
// that leaves keys missing, so merges land on values, on nothing and on
// earlier merges; readseq counts the keys at the end.
var mergeLists = [][]string{
	{"--benchmarks=fillrandom,mergerandom,readrandommergerandom,readseq", "--merge_operator=uint64add",
		"--value_size=8", "--num=3000", "--seed=1"},
	{"--benchmarks=fillrandom,mergerandom,readrandommergerandom,readseq", "--merge_operator=stringappend",
		"--merge_keys=400", "--mergereadpercent=40", "--value_size=20", "--num=2000", "--seed=2"},
	{"--benchmarks=mergerandom,readrandommergerandom,readrandom,readseq", "--merge_operator=put",
		"--num=2000", "--writes=1500", "--seed=3"},
}

// operandLists add readrandomoperands, and a readrandom after it, which
// db_bench then also runs with GetMergeOperands (its read_operands_
// stays set); for the engines that list merge operands.
var operandLists = [][]string{
	{"--benchmarks=fillrandom,mergerandom,readrandomoperands,readrandom", "--merge_operator=uint64add",
		"--value_size=8", "--num=3000", "--seed=4"},
}

// TestOracleMerge runs each list with C++ db_bench and with every engine
// that merges: the result lines' names, op counts and messages ("(
// updates:N)", "(reads:R merges:M total:T hits:H maxlength:L)") must
// match, and the engine must leave the same contents as the C++ DB (read
// through the rocksdb engine). An engine that cannot merge, or list
// operands, must refuse with exit 1 and its name in the message.
func TestOracleMerge(t *testing.T) {
	requireRocksDBOracle(t)
	run := func(lists [][]string, what string) {
		for i, list := range lists {
			args := append([]string{"--compression_type=none", "--progress_reports=false"}, list...)
			cppDir := filepath.Join(t.TempDir(), "cpp")
			want := summarize(runOracleIn(t, cppDir, args))
			op := list[1] // the --merge_operator flag
			wantSum, wantN := scanContents(t, "rocksdb", cppDir, op)
			for _, eng := range oracleEngines() {
				dir := filepath.Join(t.TempDir(), eng)
				var out, errb bytes.Buffer
				code := dbbench.Main(append([]string{"--engine=" + eng, "--db=" + dir}, args...), &out, &errb)
				if code != 0 {
					if code != 1 || !strings.Contains(errb.String(), eng+" engine") {
						t.Errorf("%s %s list %d: exit %d without naming the engine: %s", eng, what, i, code, errb.String())
					} else {
						t.Logf("%s refuses %s list %d: %s", eng, what, i, lastLine(errb.String()))
					}
					continue
				}
				if got := summarize(out.String()); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("engine %s %s list %d:\n--- ours\n%s\n--- C++ db_bench\n%s", eng, what, i,
						strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
				if sum, n := scanContents(t, eng, dir, op); sum != wantSum || n != wantN {
					t.Errorf("%s list %d: %s leaves %d entries with checksum %s; C++ db_bench %d with %s",
						what, i, eng, n, sum, wantN, wantSum)
				}
			}
		}
	}
	run(mergeLists, "merge")
	run(operandLists, "operands")
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// mergeRefusals are runs db_bench 7.8.3 refuses with exit 1, and a line
// of its output (stdout and stderr together) that says why.
var mergeRefusals = []struct {
	args []string
	line string
}{
	{[]string{"--benchmarks=mergerandom"}, "mergerandom  : skipped (--merge_operator is unknown)"},
	{[]string{"--benchmarks=fillseq,readrandommergerandom"}, "readrandommergerandom : skipped (--merge_operator is unknown)"},
	{[]string{"--benchmarks=fillseq", "--merge_operator=bogus"},
		"invalid merge operator[bogus]: Not implemented: Could not load MergeOperator: bogus"},
	{[]string{"--benchmarks=fillseq", "--merge_operator=put_v2"},
		"invalid merge operator[put_v2]: Not implemented: Could not load MergeOperator: put_v2"},
	{[]string{"--benchmarks=readwhilemerging", "--num=100000"},
		"put or merge error: Not implemented: Provide a merge_operator when opening DB"},
}

// TestOracleMergeRefusals: the same refusals in db_bench's words, exit 1,
// on every engine; an unknown operator leaves no database behind.
func TestOracleMergeRefusals(t *testing.T) {
	requireOracle(t)
	for _, c := range mergeRefusals {
		args := append([]string{"--seed=1", "--progress_reports=false"}, c.args...)
		// readwhilemerging's refusal comes from its writer thread's first
		// merge; on a loaded machine C++'s readers can finish before that
		// thread runs, so the oracle gets three tries.
		var out []byte
		var err error
		for try := 0; try < 3; try++ {
			cmd := exec.Command(oracleBinary, append([]string{"--db=" + filepath.Join(t.TempDir(), "cpp")}, args...)...)
			out, err = cmd.CombinedOutput()
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && bytes.Contains(out, []byte(c.line+"\n")) {
				break
			}
			if try == 2 {
				t.Fatalf("C++ db_bench %v: %v, want exit 1 and %q:\n%s", args, err, c.line, out)
			}
		}
		for _, eng := range oracleEngines() {
			dir := filepath.Join(t.TempDir(), eng)
			var outb, errb bytes.Buffer
			code := dbbench.Main(append([]string{"--engine=" + eng, "--db=" + dir}, args...), &outb, &errb)
			both := outb.String() + errb.String()
			if code != 1 || !strings.Contains(both, c.line+"\n") {
				t.Errorf("%s %v: exit %d, want 1 and %q:\n%s", eng, args, code, c.line, both)
			}
			if strings.HasPrefix(c.line, "invalid merge operator") {
				if _, err := os.Stat(dir); !os.IsNotExist(err) {
					t.Errorf("%s %v: %s exists after the refusal (%v)", eng, args, dir, err)
				}
			}
		}
	}
}

// sortlistOverread is what libstdc++ prints when RocksDB's sortlist
// operator, reading past an operand's end, hands std::stoi a non-number.
const sortlistOverread = "what():  stoi"

// gmoTimes are the timings of getmergeoperands' lines.
var gmoTimes = regexp.MustCompile(`[0-9.e+-]+ seconds`)

// TestOracleGetMergeOperands: getmergeoperands prints db_bench's lines,
// timings aside, on the engines that list operands; the others refuse,
// naming themselves.
func TestOracleGetMergeOperands(t *testing.T) {
	requireRocksDBOracle(t)
	args := []string{"--benchmarks=getmergeoperands", "--merge_operator=sortlist", "--seed=1"}
	block := func(out string) string {
		i := strings.Index(out, "--- Get API call")
		j := strings.Index(out, "getmergeoperands :")
		if i < 0 || j < i {
			return ""
		}
		return gmoTimes.ReplaceAllString(out[i:j], "T seconds")
	}
	want := block(runOracle(t, args))
	if want == "" {
		t.Fatal("no getmergeoperands block from C++ db_bench")
	}
	for _, eng := range oracleEngines() {
		// In a child process, as C++ db_bench runs: RocksDB's sortlist
		// operator parses an operand up to the next NUL or comma, past
		// its end, and in a process whose heap holds old data it may meet
		// a comma followed by a non-digit and abort (std::stoi). The child
		// still did so once in a clean-clone CI run: that abort, and only
		// it, is run again, in a fresh directory, up to three times.
		var code int
		var out string
		for attempt := 1; ; attempt++ {
			code, out = runOursSubprocess(t, append([]string{"--engine=" + eng, "--db=" + filepath.Join(t.TempDir(), eng)}, args...))
			if attempt == 3 || !strings.Contains(out, sortlistOverread) {
				break
			}
			t.Logf("%s: attempt %d aborted in RocksDB's sortlist operator (%q); running it again", eng, attempt, sortlistOverread)
		}
		if code != 0 {
			if code != 1 || !strings.Contains(out, eng+" engine") {
				t.Errorf("%s: exit %d without naming the engine: %s", eng, code, out)
			}
			continue
		}
		if got := block(out); got != want {
			t.Errorf("%s:\n--- ours\n%s--- C++ db_bench\n%s", eng, got, want)
		}
	}
}
