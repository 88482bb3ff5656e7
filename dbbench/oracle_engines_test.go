package dbbench_test

import (
	"github.com/godbbench/godbbench/engine"
	_ "github.com/godbbench/godbbench/engine/native"
	_ "github.com/godbbench/godbbench/engine/pebble"
	_ "github.com/godbbench/godbbench/engine/rocksdb" // real with -tags rocksdb
)

// oracleEngines are the registered storage engines the oracle test runs
// (the test-only null engine stores nothing and is left out, and the
// native wrapper of destroy_test.go is the native engine).
func oracleEngines() []string {
	var out []string
	for _, n := range engine.Names() {
		if n != "null" && n != refusingDestroyName {
			out = append(out, n)
		}
	}
	return out
}
