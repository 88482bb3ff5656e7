package pebble

import (
	"testing"

	"github.com/godbbench/godbbench/options"
)

// TestUnsupportedNamesAreOptions checks that every name the engine warns
// about is an option key (options.Spec.Key), so no warning is lost to a
// misspelling or to an option's other name.
func TestUnsupportedNamesAreOptions(t *testing.T) {
	o := options.Default()
	o.NumLevels, o.Memtablerep, o.CompactionStyle, o.TableCacheNumShardBits = 3, "vector", 1, -1
	o.AllowConcurrentMemtableWrite, o.WholeKeyFiltering, o.VerifyChecksum, o.ParanoidChecks = false, false, false, false
	o.IndexBlockRestartInterval, o.ChecksumType, o.MaxBytesForLevelMultiplier = 2, 2, 0.5
	for _, n := range append(unsupportedOptions, partlyHonoured(o)...) {
		if options.Lookup(n) == nil {
			t.Errorf("%q is not an option key", n)
		}
	}
}
