package report

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"unicode"

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
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\n", runtime.GOOS, runtime.GOARCH)
	if run.Host.CPU != "" {
		fmt.Fprintf(w, "cpu: %s\n", run.Host.CPU)
	}
	fmt.Fprintf(w, "suite: %s\nrun: %s\n", configValue(run.Suite.Name), run.ID)
	if rev := summarize(run).Revision; rev != "" {
		fmt.Fprintf(w, "commit: %s\n", shortRev(rev))
	}
	fmt.Fprintln(w)
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
		name := "Benchmark" + upperFirst(nameSafe(l.Name)) + "/pass=" + nameSafe(pr.Pass)
		if n := seen[l.Name]; n > 1 {
			name += fmt.Sprintf("/occurrence=%d", n)
		}
		name += "/engine=" + nameSafe(pr.Engine)
		fmt.Fprintf(w, "%s\t%d\t%.1f ns/op\t%d ops/s", name, l.Ops, l.MicrosPerOp*1000, l.OpsPerSec)
		if l.MBPerSec > 0 {
			fmt.Fprintf(w, "\t%.1f MB/s", l.MBPerSec)
		}
		fmt.Fprintln(w)
	}
}

// benchstatFile writes benchstat.txt into the run's folder.
func benchstatFile(run *runner.Run) error {
	return writeFile(filepath.Join(run.Dir, "benchstat.txt"), func(w io.Writer) error { return writeBenchstat(w, run) })
}

// nameSafe keeps a name part free of the characters the Go benchmark format
// gives a meaning: spaces end the name, '/' and '=' separate sub-benchmark
// keys and values.
func nameSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '/' || r == '=' {
			return '_'
		}
		return r
	}, s)
}

// configValue keeps a configuration value on its line.
func configValue(s string) string { return strings.ReplaceAll(s, "\n", " ") }

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}
