package dbbench_test

import "github.com/godbbench/godbbench/engine"

// oracleEngines are the registered engines the oracle test runs.
func oracleEngines() []string { return engine.Names() }
