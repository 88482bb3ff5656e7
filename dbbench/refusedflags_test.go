package dbbench

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestEnginesRefuseRocksDBFeatures: a RocksDB feature's flag set away
// from its default stops the native and pebble engines at open, exit 1,
// naming the engine and the flag; set to its default it changes nothing.
func TestEnginesRefuseRocksDBFeatures(t *testing.T) {
	for _, tc := range []struct{ engine, flag, want string }{
		{"native", "--use_plain_table", "Not implemented: engine native cannot apply --use_plain_table: no plain table format\n"},
		{"pebble", "--use_uint64_comparator", "Not implemented: engine pebble cannot apply --use_uint64_comparator: keys are ordered bytewise only\n"},
		{"native", "--num_low_pri_threads=4", "Not implemented: engine native cannot apply --num_low_pri_threads: no background thread pools to size\n"},
		{"pebble", "--simcache_size=1000", "Not implemented: engine pebble cannot apply --simcache_size: no simulated cache\n"},
	} {
		var out, errb bytes.Buffer
		db := filepath.Join(t.TempDir(), "db")
		code := Main([]string{"--engine=" + tc.engine, "--db=" + db, "--num=10", "--benchmarks=fillseq", tc.flag}, &out, &errb)
		if code != 1 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%s %s: exit %d, stderr %q, want exit 1 and %q", tc.engine, tc.flag, code, errb.String(), tc.want)
		}
	}
	var out, errb bytes.Buffer
	db := filepath.Join(t.TempDir(), "db")
	if code := Main([]string{"--engine=native", "--db=" + db, "--num=10", "--benchmarks=fillseq", "--use_plain_table=false"}, &out, &errb); code != 0 {
		t.Errorf("--use_plain_table=false: exit %d, stderr %q", code, errb.String())
	}
}

// TestRefusedFlags: --use_blob_db, and the flags C++ db_bench refuses on
// Debian's build, stop the run before anything is opened, on every
// engine, instead of running without the feature.
func TestRefusedFlags(t *testing.T) {
	for flag, want := range map[string]string{
		"--use_blob_db": "Not implemented: --use_blob_db: stacked BlobDB is not supported on any engine; " +
			"the integrated BlobDB is --enable_blob_files\n",
		"--enable_numa":                          "NUMA is not defined in the system.\n",
		"--use_cache_jemalloc_no_dump_allocator": "JemallocNodumpAllocator not supported.\n",
	} {
		var out, errb bytes.Buffer
		db := filepath.Join(t.TempDir(), "db")
		code := Main([]string{"--engine=native", "--db=" + db, "--num=10", "--benchmarks=fillseq", flag}, &out, &errb)
		if code != 1 || errb.String() != want {
			t.Errorf("%s: exit %d, stderr %q, want exit 1 and %q", flag, code, errb.String(), want)
		}
	}
}
