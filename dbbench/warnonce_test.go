package dbbench_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestWarningsOncePerProcessAndOnlyWhenChanged: a flag given its default
// value is not warned about, a flag with no effect or an option the engine
// cannot honour is warned about once, under the flag's own name, and an
// engine's compression substitution is said once although every fill
// re-opens the DB.
func TestWarningsOncePerProcessAndOnlyWhenChanged(t *testing.T) {
	for _, eng := range []string{"native", "pebble"} {
		db := "--db=" + filepath.Join(t.TempDir(), "db")
		code, _, errs := runMain(t, db, "--engine="+eng, "--seed=1", "--num=100",
			"--benchmarks=fillseq,fillrandom,fillseq", "--compression_type=zlib",
			"--statistics=0", "--use_blob_db=false", "--use_direct_reads=false",
			"--io_uring_enabled=false", "--async_io=1", "--table_cache_numshardbits=6", "--bloom_locality=1")
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", eng, code, errs)
		}
		for _, quiet := range []string{"statistics", "use_blob_db", "use_direct_reads "} {
			if strings.Contains(errs+" ", quiet) {
				t.Errorf("%s: a flag given its default value was warned about (%s):\n%s", eng, quiet, errs)
			}
		}
		for _, once := range []string{
			"WARNING: --io_uring_enabled is accepted for compatibility but has no effect here\n",
			"WARNING: engine " + eng + " ignores option async_io\n",
			"WARNING: engine " + eng + " ignores option bloom_locality\n",
		} {
			if n := strings.Count(errs, once); n != 1 {
				t.Errorf("%s: %q said %d times, want once:\n%s", eng, once, n, errs)
			}
		}
		if n := strings.Count(errs, "zlib"); n != 1 {
			t.Errorf("%s: the zlib substitution said %d times, want once:\n%s", eng, n, errs)
		}
		if eng == "native" && strings.Count(errs, "ignores option table_cache_numshardbits\n") != 1 {
			t.Errorf("native: --table_cache_numshardbits is not warned about once:\n%s", errs)
		}
	}
}
