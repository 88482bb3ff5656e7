package dbbench_test

import (
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// TestOracleRandomTransaction compares randomtransaction with C++
// db_bench where its outcome is deterministic: one thread (no conflicts)
// and one set (the order of the sets is drawn from std::random_device).
// The result lines' counts and messages and the check's line must match,
// and so must the whole database, read back with RocksDB's ldb, but for
// the "cat" -> "dog" entry C++ writes through its commit-time batch. The
// batch mode (no transaction flag) must match in counts and message.
// C++ db_bench 7.8.3 crashes with --optimistic_transaction_db, so that
// mode has no oracle.
func TestOracleRandomTransaction(t *testing.T) {
	requireOracle(t)
	ldb, err := exec.LookPath("ldb")
	if err != nil {
		t.Skip("RocksDB's ldb is not installed; randomtransaction's oracle needs it")
	}
	for _, eng := range oracleEngines() {
		for _, mode := range [][]string{{"--transaction_db=1"}, {"--transaction_db=1", "--transaction_set_snapshot=1"}, nil} {
			args := append([]string{"--benchmarks=randomtransaction", "--num=2000", "--seed=3", "--transaction_sets=1"}, mode...)
			oracleDir := filepath.Join(t.TempDir(), "oracle")
			want := runOracleIn(t, oracleDir, args)
			oursDir := filepath.Join(t.TempDir(), "ours")
			got := runOurs(t, eng, append([]string{"--db=" + oursDir}, args...))
			if g, w := summarize(got), summarize(want); strings.Join(g, "\n") != strings.Join(w, "\n") || len(w) == 0 {
				t.Errorf("%s %v:\n--- ours\n%s\n--- C++ db_bench\n%s", eng, mode, strings.Join(g, "\n"), strings.Join(w, "\n"))
			}
			const success = "RandomTransactionVerify Success.\n"
			if strings.Contains(got, success) != strings.Contains(want, success) {
				t.Errorf("%s %v: check line differs\n--- ours\n%s\n--- C++ db_bench\n%s", eng, mode, got, want)
			}
			if mode == nil {
				continue
			}
			scan, err := exec.Command(ldb, "--db="+oracleDir, "scan").Output()
			if err != nil {
				t.Fatalf("ldb scan: %v", err)
			}
			wantRows := strings.ReplaceAll(string(scan), "cat : dog\n", "")
			if gotRows := scanRows(t, eng, oursDir); gotRows != wantRows {
				t.Errorf("%s %v: database differs from C++ db_bench's; first difference:\n%s",
					eng, mode, firstDifference(gotRows, wantRows))
			}
		}
	}
}

// scanRows lists the database in dir as ldb scan does: "key : value" lines.
func scanRows(t *testing.T, eng, dir string) string {
	t.Helper()
	op, err := engine.Lookup(eng)
	if err != nil {
		t.Fatal(err)
	}
	db, err := op.Open(dir, options.Default(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	it, err := db.NewIter(&engine.IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var b strings.Builder
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.Value()
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(string(it.Key()) + " : " + string(v) + "\n")
	}
	if err := it.Error(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// firstDifference shows the first line where got and want differ.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			return "line " + strconv.Itoa(i+1) + ": ours " + strconv.Quote(g[i]) + ", C++ " + strconv.Quote(w[i])
		}
	}
	return "ours has " + strconv.Itoa(len(g)) + " lines, C++ " + strconv.Itoa(len(w))
}
