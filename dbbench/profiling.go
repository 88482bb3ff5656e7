package dbbench

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pkg/profile"
)

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
	return &profiler{mode: mode, dir: dir}, nil
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
