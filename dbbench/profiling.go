package dbbench

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/pkg/profile"
)

// tickCalibrationWait bounds how long a mutex or block profile waits for
// the Go runtime to learn its CPU tick rate (see tickRateKnown).
const tickCalibrationWait = 20 * time.Second

// profiler writes one pprof profile per benchmark run with
// github.com/pkg/profile (--profile=cpu|heap|mutex|block|trace, --profile_dir):
// <profile_dir>/<NN>-<benchmark>/<kind>.pprof, or trace.out for an
// execution trace (go tool trace). pkg/profile allows one mode
// per session, so one kind is profiled per process.
type profiler struct {
	mode string
	dir  string
	seq  int
}

func newProfiler(mode, dir string) (*profiler, error) {
	mode = strings.TrimSpace(mode)
	switch mode {
	case "", "cpu", "heap", "mutex", "block", "trace":
	default:
		return nil, fmt.Errorf("--profile: unknown kind '%s' (want one of cpu, heap, mutex, block, trace)", mode)
	}
	if (mode == "mutex" || mode == "block") && !tickRateKnown(tickCalibrationWait) {
		return nil, fmt.Errorf("--profile=%s: the Go runtime could not measure its CPU tick rate in %v "+
			"(the time-stamp counter is behind its value at process start, as on a migrated VM); "+
			"%s profiles cannot be written on this host now", mode, tickCalibrationWait, mode)
	}
	return &profiler{mode: mode, dir: dir}, nil
}

// tickRateKnown reports whether the runtime's CPU tick rate, which every
// mutex and block profile converts its delays with, is measured within
// wait. The runtime measures it once, on first use, and sleeps until the
// tick counter has passed its value at process start; on a host whose
// counter went backwards (a VM moved between machines) that can take
// hours, so a profile written at the end of a benchmark would hang it.
// Writing an empty block profile makes the runtime measure the rate;
// if that does not finish in time its goroutine is left sleeping.
func tickRateKnown(wait time.Duration) bool {
	done := make(chan struct{})
	go func() {
		_ = pprof.Lookup("block").WriteTo(io.Discard, 0)
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(wait):
		return false
	}
}

// start begins a profile for one run and returns the function that ends it.
func (p *profiler) start(_ int, name string) (func(), error) {
	if p == nil || p.mode == "" {
		return func() {}, nil
	}
	p.seq++
	dir := filepath.Join(p.dir, fmt.Sprintf("%02d-%s", p.seq, name))
	opts := []func(*profile.Profile){profile.ProfilePath(dir), profile.NoShutdownHook, profile.Quiet}
	switch p.mode {
	case "cpu":
		opts = append(opts, profile.CPUProfile)
	case "heap":
		opts = append(opts, profile.MemProfile)
	case "mutex":
		opts = append(opts, profile.MutexProfile)
	case "block":
		opts = append(opts, profile.BlockProfile)
	case "trace":
		opts = append(opts, profile.TraceProfile)
	}
	s := profile.Start(opts...)
	return s.Stop, nil
}
