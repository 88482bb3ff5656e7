package dbbench_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// TestBenchstatOut reads --benchstat_out back with x/perf's benchfmt, the
// reader benchstat uses: one result per run of a benchmark (three for
// [X3]), named with the engine and the thread count, its iterations the
// operations done, MB/s only where db_bench prints it; warm-up runs and
// meta operations give none.
func TestBenchstatOut(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "bench.txt")
	code, _, stderr := runMain(t, "--engine=native", "--db="+filepath.Join(dir, "db"), "--num=2000", "--seed=1",
		"--threads=2", "--benchmarks=fillseq,readrandom[X3-W1],flush,newiterator", "--benchstat_out="+out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(strings.NewReader(string(text)), "bench.txt")
	var got []string
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			_, mb := rec.Value("B/s")
			ns, _ := rec.Value("sec/op")
			if rec.GetConfig("godbbench") == "" || rec.Iters != 4000 || ns <= 0 {
				t.Errorf("%s: config %v, iters %d, sec/op %g", rec.Name, rec.Config, rec.Iters, ns)
			}
			got = append(got, rec.Name.String()+map[bool]string{true: " MB/s", false: ""}[mb])
		case *benchfmt.SyntaxError:
			t.Fatalf("syntax error: %v", rec)
		}
	}
	want := "Fillseq/engine=native/threads=2 MB/s|Readrandom/engine=native/threads=2 MB/s|" +
		"Readrandom/engine=native/threads=2 MB/s|Readrandom/engine=native/threads=2 MB/s|Newiterator/engine=native/threads=2"
	if strings.Join(got, "|") != want {
		t.Fatalf("results %q\nwant %q\nfile:\n%s", got, want, text)
	}
}
