package report

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/godbbench/godbbench/internal/golden"
)

// TestBenchstatParses reads benchstat.txt back with x/perf's benchfmt, the
// reader benchstat uses: every comparable result line is there with its
// configuration, and the failed engine's and the warned benchmark are not.
func TestBenchstatParses(t *testing.T) {
	run := syntheticRun(t)
	if err := Write(run); err != nil {
		t.Fatal(err)
	}
	text := read(t, filepath.Join(run.Dir, "benchstat.txt"))
	golden.Check(t, "testdata/golden/benchstat.txt", text)
	r := benchfmt.NewReader(strings.NewReader(text), "benchstat.txt")
	var names []string
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			names = append(names, rec.Name.String())
			if rec.GetConfig("suite") != "synthetic" || rec.GetConfig("goos") == "" || rec.GetConfig("commit") != "0123456789ab" {
				t.Errorf("%s: config %v", rec.Name, rec.Config)
			}
			ns, ok1 := rec.Value("sec/op") // benchfmt reads ns/op as sec/op
			ops, ok2 := rec.Value("ops/s")
			if !ok1 || !ok2 || ns <= 0 || ops < 0 || rec.Iters <= 0 {
				t.Errorf("%s: iters %d, values %+v", rec.Name, rec.Iters, rec.Values)
			}
		case *benchfmt.SyntaxError:
			t.Errorf("syntax error: %v", rec)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Fillrandom/pass=fill/engine=fast", "Readseq/pass=fill/engine=fast", "Readseq/pass=fill/occurrence=2/engine=fast",
		"Fillrandom/pass=fill/engine=base", "Compact/pass=fill/engine=base", "Readseq/pass=fill/engine=base", "Readseq/pass=fill/occurrence=2/engine=base",
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("results %q\nwant %q", names, want)
	}
}
