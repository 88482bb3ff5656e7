package dbbench_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRandomTransactionEveryEngine runs randomtransaction with four
// threads in each mode on every engine: the transaction modes must pass
// db_bench's check of the sets, and every mode must report its message.
func TestRandomTransactionEveryEngine(t *testing.T) {
	modes := []struct {
		flags   []string
		message string
		verify  bool
	}{
		{[]string{"--transaction_db=1"}, "( transactions:500 aborts:", true},
		{[]string{"--transaction_db=1", "--transaction_set_snapshot=1", "--transaction_sets=5"}, "( transactions:500 aborts:", true},
		{[]string{"--optimistic_transaction_db=1", "--transaction_sets=3"}, "( transactions:500 aborts:", true},
		{nil, "( batches:500 )", false},
	}
	for _, eng := range oracleEngines() {
		for _, m := range modes {
			args := append([]string{"--engine=" + eng, "--db=" + filepath.Join(t.TempDir(), "db"),
				"--benchmarks=randomtransaction", "--num=100", "--reads=500", "--threads=4", "--progress_reports=false"}, m.flags...)
			code, stdout, stderr := runMain(t, args...)
			if code != 0 || !strings.Contains(stdout, m.message) ||
				strings.Contains(stdout, "RandomTransactionVerify Success.\n") != m.verify {
				t.Errorf("%v: exit %d, want 0, %q and the check's success line: %v\nstdout:\n%s\nstderr:\n%s",
					args, code, m.message, m.verify, stdout, stderr)
			}
		}
	}
}

// TestRandomTransactionRefusals: db_bench's refusals of the transaction
// flags, in its words, with exit 1.
func TestRandomTransactionRefusals(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--transaction_db=1", "--readonly=1", "--use_existing_db=1"}, "Cannot use readonly flag with transaction_db"},
		{[]string{"--optimistic_transaction_db=1", "--use_secondary_db=1"}, "Cannot use use_secondary_db flag with transaction_db"},
		{[]string{"--transaction_db=1", "--transaction_sets=0"}, "invalid value for transaction_sets"},
		{[]string{"--transaction_db=1", "--transaction_sets=10000"}, "invalid value for transaction_sets"},
	}
	for _, c := range cases {
		args := append([]string{"--db=" + filepath.Join(t.TempDir(), "db"), "--benchmarks=randomtransaction", "--num=10"}, c.args...)
		code, _, stderr := runMain(t, args...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", c.args, code, stderr, c.want)
		}
	}
}
