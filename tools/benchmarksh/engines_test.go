//go:build !rocksdb

package benchmarksh

// testEngines are the engines TestJobsReportNumbers runs the jobs on, and
// testBuildTags the tags its db_bench is built with; a rocksdb-tagged test
// build adds the RocksDB engine (engines_rocksdb_test.go).
var (
	testEngines   = []string{"native", "pebble"}
	testBuildTags = ""
)
