//go:build rocksdb

package benchmarksh

// testEngines and testBuildTags of a rocksdb-tagged test build: the
// RocksDB engine too (engines_test.go has the plain build's).
var (
	testEngines   = []string{"native", "pebble", "rocksdb"}
	testBuildTags = "rocksdb"
)
