package dbbench_test

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// oracleSkips are the tests skipped because C++ db_bench is not
// installed; TestMain lists them on stderr after the run, so that a
// passing run without the oracle says loudly what it did not compare.
var oracleSkips struct {
	sync.Mutex
	names []string
}

// requireOracle skips t in -short mode (the race run; the plain run
// compares) and when C++ db_bench is not installed at oracleBinary,
// recording the latter for TestMain's notice.
func requireOracle(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("oracle comparison skipped in -short mode; the plain run compares")
	}
	if _, err := os.Stat(oracleBinary); err != nil {
		oracleSkips.Lock()
		oracleSkips.names = append(oracleSkips.names, t.Name())
		oracleSkips.Unlock()
		t.Skipf("C++ db_bench not installed at %s (apt-get install rocksdb-tools); oracle comparison skipped", oracleBinary)
	}
}

// requireRocksDBOracle is requireOracle for a test that compares the
// rocksdb engine with C++ db_bench: it also skips without the engine.
func requireRocksDBOracle(t *testing.T) {
	t.Helper()
	requireOracle(t)
	if !slices.Contains(engine.Names(), "rocksdb") {
		t.Skip("built without the rocksdb engine (-tags rocksdb)")
	}
}

// reportOracleSkips writes the notice of the tests skipped for want of
// the oracle, if any.
func reportOracleSkips(w io.Writer) {
	oracleSkips.Lock()
	defer oracleSkips.Unlock()
	if len(oracleSkips.names) == 0 {
		return
	}
	fmt.Fprintf(w, "\n*** C++ db_bench is not installed at %s: %d oracle comparisons were SKIPPED: %v ***\n\n",
		oracleBinary, len(oracleSkips.names), oracleSkips.names)
}
