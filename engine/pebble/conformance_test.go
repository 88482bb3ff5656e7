package pebble

import (
	"testing"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/engine/enginetest"
	"github.com/godbbench/godbbench/options"
)

// testOptions keeps memtables and tables small so that the random tests
// exercise flushes, several levels and compactions with little data.
func testOptions() *options.Options {
	o := options.Default()
	o.WriteBufferSize = 64 << 10
	o.TargetFileSizeBase = 32 << 10
	o.MaxBytesForLevelBase = 256 << 10
	o.BloomBits = 10
	o.CacheSize = 1 << 20
	return o
}

func openTest(t testing.TB, o *options.Options) func(dir string) engine.DB {
	return enginetest.OpenWith(t, Opener{}, o)
}

func TestConformance(t *testing.T) {
	enginetest.RunConformance(t, openTest(t, testOptions()))
}

func TestConformanceNoCacheNoCompression(t *testing.T) {
	o := testOptions()
	o.CacheSize = 0
	o.CompressionType = "none"
	o.BloomBits = 0
	enginetest.RunConformance(t, openTest(t, o))
}

// TestConformanceDisableWAL runs the suite with the WAL off; the reopen
// checks pass because Close flushes the memtables, as RocksDB does.
func TestConformanceDisableWAL(t *testing.T) {
	o := testOptions()
	o.DisableWAL = true
	o.CompressionType = "zstd"
	enginetest.RunConformance(t, openTest(t, o))
}

func TestConcurrency(t *testing.T) {
	enginetest.RunConcurrency(t, openTest(t, testOptions()))
}

// TestMerge runs the merge suite; Pebble lists no merge operands.
func TestMerge(t *testing.T) {
	enginetest.RunMerge(t, enginetest.MergeOpenWith(t, Opener{}, testOptions()), false)
}

// TestStatistics checks the counts of the STATISTICS block after a known
// workload, and that counting allocates nothing per Get or Put.
func TestStatistics(t *testing.T) {
	o := testOptions()
	o.Statistics = true
	// Pebble's table Get allocates once itself (alloc_test.go).
	enginetest.RunStatistics(t, openTest(t, o), 1)
}

// TestSharedStatistics: databases of SharingStatistics count in one
// statistics object, Pebble's metrics of each included.
func TestSharedStatistics(t *testing.T) {
	o := testOptions()
	o.Statistics = true
	enginetest.RunSharedStatistics(t, Opener{}, o)
}

// TestConcurrencyWithStatistics: counting adds no race (run with -race).
func TestConcurrencyWithStatistics(t *testing.T) {
	o := testOptions()
	o.Statistics = true
	enginetest.RunConcurrency(t, openTest(t, o))
}
