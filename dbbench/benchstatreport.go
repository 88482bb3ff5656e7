package dbbench

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"

	"github.com/godbbench/godbbench/internal/buildinfo"
	"github.com/godbbench/godbbench/internal/gobench"
)

// benchstatReporter writes --benchstat_out: every result line of the run in
// the Go benchmark format (internal/gobench), named
// "BenchmarkNAME/engine=E" (with "/threads=N" when --threads is not 1), so
// that `benchstat old.txt new.txt` compares two runs; a benchmark repeated
// ([Xn] or listed twice) gives benchstat one sample per run. The file is
// replaced at start; configuration lines say the machine and godbbench.
type benchstatReporter struct {
	f      *os.File
	w      *bufio.Writer
	engine string
}

func openBenchstatReporter(path, engine string) (*benchstatReporter, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cannot create --benchstat_out file: %v", err)
	}
	b := &benchstatReporter{f: f, w: bufio.NewWriter(f), engine: engine}
	gobench.Config(b.w, "goos", runtime.GOOS)
	gobench.Config(b.w, "goarch", runtime.GOARCH)
	if cpu := cpuModelName(); cpu != "" {
		gobench.Config(b.w, "cpu", cpu)
	}
	gobench.Config(b.w, "godbbench", buildinfo.Describe())
	b.w.WriteString("\n")
	return b, nil
}

// record writes the line of one finished benchmark run (after report
// made its figures).
func (b *benchstatReporter) record(name string, s *Stats, threads int) {
	if b == nil {
		return
	}
	elapsed := s.elapsed()
	keys := []string{"engine", b.engine}
	if threads != 1 {
		keys = append(keys, "threads", strconv.Itoa(threads))
	}
	var mbps float64
	if s.bytes > 0 {
		mbps = float64(s.bytes) / 1048576.0 / elapsed
	}
	gobench.Result(b.w, gobench.Name(name, keys...), s.done, s.seconds*1e9/float64(s.done),
		truncOpsPerSec(float64(s.done)/elapsed), mbps)
}

func (b *benchstatReporter) close() error {
	if b == nil {
		return nil
	}
	if err := b.w.Flush(); err != nil {
		b.f.Close()
		return err
	}
	return b.f.Close()
}
