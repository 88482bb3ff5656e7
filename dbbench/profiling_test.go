package dbbench_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfileKinds: every --profile kind writes one file per benchmark
// under --profile_dir, named for the kind; an unknown kind is an error.
func TestProfileKinds(t *testing.T) {
	files := map[string]string{
		"cpu": "cpu.pprof", "heap": "mem.pprof", "mutex": "mutex.pprof",
		"block": "block.pprof", "trace": "trace.out",
	}
	for kind, file := range files {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			profDir := filepath.Join(dir, "prof")
			code, _, errs := runMain(t, "--engine=native", "--db="+filepath.Join(dir, "db"),
				"--benchmarks=fillseq,readseq", "--num=1000", "--seed=1",
				"--profile="+kind, "--profile_dir="+profDir)
			if code != 0 && strings.Contains(errs, "could not measure its CPU tick rate") {
				t.Skipf("SKIPPED --profile=%s: %s", kind, errs)
			}
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, run := range []string{"01-fillseq", "02-readseq"} {
				st, err := os.Stat(filepath.Join(profDir, run, file))
				if err != nil {
					t.Fatal(err)
				}
				if st.Size() == 0 {
					t.Errorf("%s/%s is empty", run, file)
				}
			}
		})
	}
	code, _, errs := runMain(t, "--engine=native", "--db="+filepath.Join(t.TempDir(), "db"),
		"--benchmarks=fillseq", "--num=10", "--profile=goroutine")
	if code == 0 || !strings.Contains(errs, "--profile: unknown kind 'goroutine'") {
		t.Errorf("exit %d, stderr %q: want the unknown kind named", code, errs)
	}
}
