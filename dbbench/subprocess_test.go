package dbbench_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/dbbench"
)

// mainArgsEnv, when set, makes the test binary run dbbench.Main with its
// newline-separated arguments instead of the tests: runOursSubprocess uses
// it for runs that may abort inside RocksDB (Debian's build asserts) without
// taking the test process down.
const mainArgsEnv = "GODBBENCH_TEST_MAIN_ARGS"

// asDBBenchEnv, when set, makes the test binary be db_bench: it runs
// dbbench.Main with its command line. Scripts that call ./db_bench
// (RocksDB's benchmark.sh) run it through a link of that name.
const asDBBenchEnv = "GODBBENCH_TEST_AS_DB_BENCH"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(mainArgsEnv); ok {
		os.Exit(dbbench.Main(strings.Split(args, "\n"), os.Stdout, os.Stderr))
	}
	if os.Getenv(asDBBenchEnv) != "" {
		os.Exit(dbbench.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	code := m.Run()
	reportOracleSkips(os.Stderr)
	os.Exit(code)
}

// runOursSubprocess runs dbbench.Main with args in a child process and
// returns its exit code (non-zero for a crash) and combined output.
func runOursSubprocess(t *testing.T, args []string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), mainArgsEnv+"="+strings.Join(args, "\n"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("running %v: %v", args, err)
		}
		return max(ee.ExitCode(), 1), out.String()
	}
	return 0, out.String()
}
