package dbbench_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/engine"
)

// TestReadOnlyRefusesWrites: --readonly=1 opens the database read-only on
// every engine. A write benchmark ends with db_bench's "put error: Not
// implemented: Not supported operation in read only mode." and exit 1, a
// fill benchmark is skipped (it would need a fresh database), reads work,
// and a missing --db fails at open with nothing created inside it.
func TestReadOnlyRefusesWrites(t *testing.T) {
	for _, eng := range []string{"native", "pebble", "rocksdb"} {
		t.Run(eng, func(t *testing.T) {
			if _, err := engine.Lookup(eng); err != nil {
				t.Skip(err)
			}
			dir := filepath.Join(t.TempDir(), "db")
			base := []string{"--engine=" + eng, "--db=" + dir, "--num=100", "--seed=1"}
			if code, _, errs := runMain(t, append(base, "--benchmarks=fillseq")...); code != 0 {
				t.Fatalf("fillseq: exit %d, stderr %q", code, errs)
			}
			ro := append(base, "--readonly=1", "--use_existing_db=1")
			for _, c := range []struct{ bench, stderr string }{
				{"overwrite", "put error: Not implemented: Not supported operation in read only mode.\n"},
				{"deleterandom", "del error: Not implemented: Not supported operation in read only mode.\n"},
			} {
				code, _, errs := runMain(t, append(ro, "--benchmarks="+c.bench)...)
				if code != 1 || !strings.HasSuffix(errs, c.stderr) {
					t.Errorf("%s: exit %d, stderr %q, want exit 1 ending %q", c.bench, code, errs, c.stderr)
				}
			}
			// db_bench ignores CompactRange's status: compact and
			// compactall go on (exit 0); a flush fails (exit 1).
			code, out, errs := runMain(t, append(ro, "--benchmarks=compact,compactall,readseq")...)
			if code != 0 || !strings.Contains(out, "readseq      :") || strings.Count(errs, "compact error (ignored") != 2 {
				t.Errorf("compact,compactall,readseq: exit %d\nstdout %q\nstderr %q", code, out, errs)
			}
			if code, _, errs := runMain(t, append(ro, "--benchmarks=flush")...); code != 1 || !strings.Contains(errs, "Flush failed: Not implemented") {
				t.Errorf("flush: exit %d, stderr %q, want exit 1 and Flush failed", code, errs)
			}
			code, out, errs = runMain(t, append(ro, "--benchmarks=fillrandom,readseq")...)
			if code != 0 || !strings.Contains(out, "fillrandom   : skipped (--use_existing_db is true)") ||
				!strings.Contains(out, "readseq      :") {
				t.Errorf("fillrandom,readseq: exit %d, stdout %q, stderr %q", code, out, errs)
			}
			// Still the 100 keys fillseq wrote.
			code, out, _ = runMain(t, append(ro, "--benchmarks=readrandom")...)
			if code != 0 || !strings.Contains(out, "(100 of 100 found)") {
				t.Errorf("readrandom after refused writes: exit %d, stdout %q", code, out)
			}

			missing := filepath.Join(t.TempDir(), "missing")
			code, _, errs = runMain(t, "--engine="+eng, "--db="+missing, "--readonly=1", "--num=10", "--benchmarks=readrandom")
			if code != 1 || !strings.Contains(errs, "open error: ") {
				t.Errorf("missing db: exit %d, stderr %q", code, errs)
			}
			if ents, _ := os.ReadDir(missing); len(ents) != 0 {
				t.Errorf("read-only run on a missing db created %v", ents)
			}
		})
	}
}
