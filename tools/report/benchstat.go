package report

import (
	"io"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/godbbench/godbbench/internal/gobench"
	"github.com/godbbench/godbbench/tools/runner"
)

// writeBenchstat writes benchstat.txt: the run's db_bench results in the Go
// benchmark format, so `benchstat old/benchstat.txt new/benchstat.txt`
// compares two runs and `benchstat -col /engine benchstat.txt` compares
// engines within one. The layout is
//
//	goos: linux                 configuration lines
//	goarch: amd64
//	cpu: AMD EPYC
//	suite: smoke
//	run: 20261201-191646-smoke
//	commit: 0123456789ab        when known
//
//	BenchmarkFillrandom/pass=fillrandom/engine=native 200000 3984 ns/op 251000 ops/s 27.8 MB/s
//
// one line per result line: the name is "Benchmark" and the db_bench
// benchmark with its first letter upper-cased, then the pass, the
// occurrence when a benchmark repeats in a pass (/occurrence=2), and the
// engine; the iteration count is the operations done; ns/op is db_bench's
// micros/op times 1000; MB/s only when db_bench printed it. Failed passes
// and benchmarks an engine warned it ran differently are left out: they are
// not comparable. A repeated suite writes every round's lines, so that
// benchstat sees one sample per round.
func writeBenchstat(w io.Writer, run *runner.Run) error {
	gobench.Config(w, "goos", runtime.GOOS)
	gobench.Config(w, "goarch", runtime.GOARCH)
	if run.Host.CPU != "" {
		gobench.Config(w, "cpu", run.Host.CPU)
	}
	gobench.Config(w, "suite", run.Suite.Name)
	gobench.Config(w, "run", run.ID)
	if rev := summarize(run).Revision; rev != "" {
		gobench.Config(w, "commit", shortRev(rev))
	}
	io.WriteString(w, "\n")
	for _, agg := range run.Results {
		if agg.Failed() {
			continue
		}
		rounds := agg.Rounds
		if len(rounds) == 0 {
			rounds = []*runner.PassResult{agg}
		}
		for _, pr := range rounds {
			writeBenchstatLines(w, pr)
		}
	}
	return nil
}

// writeBenchstatLines writes one process's comparable result lines.
func writeBenchstatLines(w io.Writer, pr *runner.PassResult) {
	seen := map[string]int{}
	for _, l := range pr.Lines {
		seen[l.Name]++
		if len(l.Warnings) > 0 || l.Ops <= 0 {
			continue
		}
		keys := []string{"pass", pr.Pass}
		if n := seen[l.Name]; n > 1 {
			keys = append(keys, "occurrence", strconv.Itoa(n))
		}
		keys = append(keys, "engine", pr.Engine)
		gobench.Result(w, gobench.Name(l.Name, keys...), l.Ops, l.MicrosPerOp*1000, l.OpsPerSec, l.MBPerSec)
	}
}

// benchstatFile writes benchstat.txt into the run's folder.
func benchstatFile(run *runner.Run) error {
	return writeFile(filepath.Join(run.Dir, "benchstat.txt"), func(w io.Writer) error { return writeBenchstat(w, run) })
}
