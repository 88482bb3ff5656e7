// Package runner executes a benchmark suite: every pass on every engine, each
// as its own process under the resource sampler, then gathers result lines,
// JSON records, memory series, DB sizes, warnings, errors and versions, and
// cross-checks the read checksums of engines that report them. A pass that
// crashes, times out or reports a benchmark error is recorded as failed,
// with the reason; the other engines' results still stand.
package runner

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/godbbench/godbbench/dbbench/jsonrecord"
	"github.com/godbbench/godbbench/tools/results"
	"github.com/godbbench/godbbench/tools/sampler"
	"github.com/godbbench/godbbench/tools/suite"
)

// Binaries are the programs passes run.
type Binaries struct {
	DBBench          string // our db_bench
	MemtablerepBench string // our memtablerep_bench
	// Source, when set, is the VCS state of the tree the two were built
	// from, for binaries the go command did not stamp (-buildvcs=false, a
	// git worktree).
	Source *SourceRevision
}

// SourceRevision is a commit and whether the tree had changes.
type SourceRevision struct {
	Revision string
	Modified bool
}

// PassResult is one (pass, engine) process.
type PassResult struct {
	Pass        string
	Engine      string
	Status      string   // "ok", "exit N", "timed out", "benchmark error", "skipped", "error: ..."
	Failure     string   // why a failed pass failed: its first error line, else its last line
	Version     string   // engine version from the log header, e.g. "RocksDB 7.8.3"
	Warnings    []string // warnings about the whole pass; per-benchmark ones are in Lines
	Command     []string
	Lines       []results.Line
	Records     []jsonrecord.Record
	Mem         []results.MemLine
	Sampler     *sampler.Result
	DBApparent  int64
	DBAllocated int64
	LogFile     string
	SeriesFile  string
	// With a suite's repeat: > 1, the fields above are the medians over
	// Rounds (see medians), and Spread[i] is the spread of Lines[i].
	Round  int // 1-based round of this process; 0 for a median
	Rounds []*PassResult
	Spread []Spread
}

// Spread is the range of one result line's ops/s over the rounds.
type Spread struct {
	Min, Max float64
	N        int
}

// OK reports whether the process ran to a clean exit.
func (p *PassResult) OK() bool { return p.Status == "ok" }

// Failed reports whether the process ran and did not succeed: it exited
// non-zero, timed out, could not start or a benchmark reported an error.
func (p *PassResult) Failed() bool { return p.Status != "ok" && p.Status != "skipped" }

// Run is one execution of a suite.
type Run struct {
	Suite      *suite.Suite
	ID         string
	Dir        string
	Start      time.Time
	End        time.Time
	Host       Host
	Benchsuite Build            // the program that ran the suite
	Binaries   map[string]Build // by path: our db_bench, memtablerep_bench, external binaries
	Results    []*PassResult
	Mismatches []string
}

// Host describes the machine.
type Host struct {
	CPU        string `json:"cpu"`
	Cores      int    `json:"cores"`
	MemTotal   int64  `json:"mem_total_bytes"`
	Kernel     string `json:"kernel"`
	Filesystem string `json:"filesystem"` // of the scratch directory the DBs live in, e.g. "tmpfs on /dev/shm"
}

// Result finds the result of a pass on an engine.
func (r *Run) Result(pass, engine string) *PassResult {
	for _, p := range r.Results {
		if p.Pass == pass && p.Engine == engine {
			return p
		}
	}
	return nil
}

// externalUndefok lets an external db_bench accept our extension flags.
const externalUndefok = "report_bench_start_time,compact_target_level,scan_omit_key,scan_omit_value"

// Execute runs the suite; progress lines go to progress.
func Execute(s *suite.Suite, bins Binaries, progress io.Writer) (*Run, error) {
	run := &Run{Suite: s, Start: time.Now(), Host: hostInfo(s.Scratch), Benchsuite: SelfBuild(), Binaries: binaryBuilds(s, bins)}
	run.ID = run.Start.UTC().Format("20060102-150405") + "-" + sanitize(s.Name)
	run.Dir = filepath.Join(s.Output, run.ID)
	if err := os.MkdirAll(filepath.Join(run.Dir, "raw"), 0o755); err != nil {
		return nil, err
	}
	scratch, err := os.MkdirTemp(s.Scratch, "godbbench-suite-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	rounds := max(1, s.Repeat)
	total := len(s.Passes) * len(s.Engines) * rounds
	n := 0
	var all []*PassResult
	// Rounds run the whole suite again, so that slow drift of the machine
	// spreads over every engine rather than landing on one.
	for round := 1; round <= rounds; round++ {
		for _, e := range s.Engines {
			for _, p := range s.Passes {
				n++
				pr := runPass(run, s, &e, &p, bins, scratch, progress, n, total, round)
				all = append(all, pr)
			}
			// An engine's DBs are dropped once its passes are done.
			os.RemoveAll(filepath.Join(scratch, sanitize(e.Name)))
		}
	}
	run.Results = all
	if rounds > 1 {
		run.Results = medians(s, all)
	}
	run.End = time.Now()
	run.Mismatches = compareChecksums(run)
	return run, nil
}

func runPass(run *Run, s *suite.Suite, e *suite.Engine, p *suite.Pass, bins Binaries, scratch string, progress io.Writer, n, total, round int) *PassResult {
	pr := &PassResult{Pass: p.Name, Engine: e.Name, Round: round}
	tag := fmt.Sprintf("[%d/%d] %s on %s", n, total, p.Name, e.Name)
	if s.Repeat > 1 {
		tag += fmt.Sprintf(", round %d", round)
	}
	if p.Skips(e.Name) || (p.Tool == "memtablerep_bench" && e.External()) {
		pr.Status = "skipped"
		fmt.Fprintf(progress, "%s: skipped\n", tag)
		return pr
	}
	base := sanitize(p.Name) + "-" + sanitize(e.Name)
	if round > 1 {
		base += fmt.Sprintf("-r%d", round)
	}
	pr.LogFile = filepath.Join(run.Dir, "raw", base+".log")
	pr.SeriesFile = filepath.Join(run.Dir, "raw", base+".statm")
	jsonFile := filepath.Join(run.Dir, "raw", base+".jsonl")
	dbDir := passDBDir(scratch, e, p)
	if err := os.MkdirAll(filepath.Dir(dbDir), 0o755); err != nil {
		pr.Status = "error: " + err.Error()
		return pr
	}
	args := buildArgs(s, e, p, bins, dbDir, jsonFile)
	pr.Command = args
	logF, err := os.Create(pr.LogFile)
	if err != nil {
		pr.Status = "error: " + err.Error()
		return pr
	}
	defer logF.Close()
	seriesF, err := os.Create(pr.SeriesFile)
	if err != nil {
		pr.Status = "error: " + err.Error()
		return pr
	}
	defer seriesF.Close()
	fmt.Fprintf(logF, "$ %s\n", strings.Join(args, " "))
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = logF, logF
	fmt.Fprintf(progress, "%s: running %s\n", tag, p.Benchmarks)
	var tracker *progressTracker
	if p.Tool == "db_bench" {
		tracker = newProgressTracker(pr.LogFile, args)
	}
	stop := startTicker(progress, tag, tracker)
	res, err := sampler.Run(cmd, s.SampleInterval, s.Timeout, seriesF)
	stop()
	pr.Sampler = res
	switch {
	case err != nil:
		pr.Status = "error: " + err.Error()
	case res.TimedOut:
		pr.Status = "timed out"
	case res.ExitCode != 0:
		pr.Status = fmt.Sprintf("exit %d", res.ExitCode)
	default:
		pr.Status = "ok"
	}
	logF.Sync()
	if f, err := os.Open(pr.LogFile); err == nil {
		if p.Tool == "memtablerep_bench" {
			pr.Mem, _ = results.ParseMemtablerep(f)
		} else if lg, err := results.ParseLog(f); err == nil {
			readLog(pr, lg, res)
		}
		f.Close()
	}
	if !e.External() && p.Tool == "db_bench" {
		pr.Records, _ = results.ReadJSON(jsonFile)
	}
	if p.Tool == "db_bench" {
		pr.DBApparent, pr.DBAllocated, _ = sampler.DirSize(dbDir)
	}
	fmt.Fprintf(progress, "%s: %s in %.1fs, peak RSS %.1f MiB\n", tag, pr.Status, res.Wall.Seconds(), float64(res.PeakRSSBytes)/(1<<20))
	return pr
}

// passDBDir is the DB directory of a pass: its own, or the one of the pass
// whose DB it reuses.
func passDBDir(scratch string, e *suite.Engine, p *suite.Pass) string {
	if p.ExistingDB != "" {
		return filepath.Join(scratch, sanitize(e.Name), sanitize(p.ExistingDB))
	}
	return filepath.Join(scratch, sanitize(e.Name), sanitize(p.Name))
}

// Planned is one process a suite would run.
type Planned struct {
	Pass, Engine string
	Skipped      bool
	Command      []string
}

// Plan lists the processes Execute would run, in order, with their command
// lines; DBs and reports are shown under the placeholders SCRATCH and RUN.
func Plan(s *suite.Suite, bins Binaries) []Planned {
	var out []Planned
	for i := range s.Engines {
		e := &s.Engines[i]
		for j := range s.Passes {
			p := &s.Passes[j]
			pl := Planned{Pass: p.Name, Engine: e.Name}
			if p.Skips(e.Name) || (p.Tool == "memtablerep_bench" && e.External()) {
				pl.Skipped = true
			} else {
				json := filepath.Join("RUN", "raw", sanitize(p.Name)+"-"+sanitize(e.Name)+".jsonl")
				pl.Command = buildArgs(s, e, p, bins, passDBDir("SCRATCH", e, p), json)
			}
			out = append(out, pl)
		}
	}
	return out
}

// readLog takes a db_bench log's lines, warnings and version, and marks the
// pass failed when a benchmark reported an error although the process exited
// 0. A failed pass gets its reason: the first error line, else the last line.
func readLog(pr *PassResult, lg *results.Log, res *sampler.Result) {
	pr.Lines, pr.Warnings, pr.Version = lg.Lines, lg.PassWarnings, lg.Version
	if pr.Status == "ok" && len(lg.Errors) > 0 {
		pr.Status = "benchmark error"
	}
	if !pr.Failed() {
		return
	}
	switch {
	case len(lg.Errors) > 0:
		pr.Failure = lg.Errors[0]
	case res != nil && res.TimedOut:
		pr.Failure = fmt.Sprintf("killed after %.0f s; last line: %s", res.Wall.Seconds(), lg.LastLine)
	default:
		pr.Failure = lg.LastLine
	}
}

// binaryBuilds reads the build of every program the suite runs.
func binaryBuilds(s *suite.Suite, bins Binaries) map[string]Build {
	out := map[string]Build{}
	add := func(path string) {
		if path != "" {
			b := BinaryBuild(path)
			out[b.Path] = b
		}
	}
	for _, p := range s.Passes {
		if p.Tool == "memtablerep_bench" {
			add(bins.MemtablerepBench)
		} else {
			add(bins.DBBench)
		}
	}
	for _, path := range []string{bins.DBBench, bins.MemtablerepBench} {
		b, ok := out[path]
		if ok && b.Revision == "" && b.Module != "" && bins.Source != nil {
			b.Revision, b.Modified = bins.Source.Revision, bins.Source.Modified
			out[path] = b
		}
	}
	for _, e := range s.Engines {
		add(e.Binary)
	}
	return out
}

// buildArgs assembles one process's command line: suite flags, engine flags,
// pass flags, then the fixed ones.
func buildArgs(s *suite.Suite, e *suite.Engine, p *suite.Pass, bins Binaries, dbDir, jsonFile string) []string {
	if p.Tool == "memtablerep_bench" {
		args := []string{bins.MemtablerepBench}
		for _, f := range e.Flags {
			if strings.HasPrefix(strings.TrimLeft(f, "-"), "memtablerep=") {
				args = append(args, f)
			}
		}
		return append(args, p.Flags...)
	}
	var args []string
	if e.External() {
		args = []string{e.Binary, "--undefok=" + externalUndefok}
	} else {
		args = []string{bins.DBBench, "--engine=" + e.Engine, "--report_json=" + jsonFile}
	}
	// A fixed seed by default, so engines read the same keys and their
	// checksums can be compared; suite flags may override it (last wins).
	args = append(args, "--seed=1", "--db="+dbDir, "--benchmarks="+p.Benchmarks, "--report_bench_start_time=true")
	if p.ExistingDB != "" {
		args = append(args, "--use_existing_db=1")
	}
	for _, group := range [][]string{s.Flags, e.Flags, p.Flags} {
		for _, f := range group {
			if e.External() {
				f = valueForm(f)
			}
			args = append(args, f)
		}
	}
	return args
}

// valueForm rewrites a bare extension bool flag to "=true": gflags' undefok
// only accepts unknown flags written with a value.
func valueForm(f string) string {
	name := strings.TrimLeft(f, "-")
	if strings.Contains(name, "=") {
		return f
	}
	for _, ext := range strings.Split(externalUndefok, ",") {
		if name == ext {
			return f + "=true"
		}
	}
	return f
}

// startTicker prints, every 10 s while a pass runs, the time elapsed and,
// for db_bench passes, where the process is (see progressTracker).
func startTicker(w io.Writer, tag string, tracker *progressTracker) func() {
	done := make(chan struct{})
	stopped := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(stopped)
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				where := ""
				if tracker != nil {
					where = ", " + tracker.line(now)
				}
				fmt.Fprintf(w, "%s: %.0fs elapsed%s\n", tag, now.Sub(start).Seconds(), where)
			}
		}
	}()
	return func() { close(done); <-stopped }
}

// compareChecksums checks, pass by pass, that every engine reporting read
// checksums returned the same data: the i-th occurrence of each benchmark
// must carry the same checksum on every engine.
func compareChecksums(run *Run) []string {
	var out []string
	for _, p := range run.Suite.Passes {
		type ref struct {
			engine, sum string
		}
		first := map[string]ref{}
		for _, e := range run.Suite.Engines {
			pr := run.Result(p.Name, e.Name)
			if pr == nil || !pr.OK() {
				continue
			}
			seen := map[string]int{}
			for _, rec := range pr.Records {
				if rec.Warmup || rec.Checksum == "" {
					continue
				}
				seen[rec.Benchmark]++
				key := fmt.Sprintf("%s#%d", rec.Benchmark, seen[rec.Benchmark])
				if f, ok := first[key]; !ok {
					first[key] = ref{e.Name, rec.Checksum}
				} else if f.sum != rec.Checksum {
					out = append(out, fmt.Sprintf("pass %s, %s: checksum %s on %s but %s on %s",
						p.Name, key, f.sum, f.engine, rec.Checksum, e.Name))
				}
			}
		}
	}
	return out
}

// sanitize turns a suite's, engine's or pass's name into one path element
// inside the directory it is joined to: letters, digits, '-', '_' and '.'
// are kept, anything else becomes '_', and so does a leading '.', so that
// no name is empty, ".", ".." (which would make an engine's scratch
// directory, removed whole after the run, the scratch root or its parent)
// or hidden.
func sanitize(s string) string {
	out := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, s)
	if rest, ok := strings.CutPrefix(out, "."); ok || out == "" {
		out = "_" + rest
	}
	return out
}

func hostInfo(scratch string) Host {
	h := Host{Filesystem: filesystemOf(scratch)}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				h.Cores++
				h.CPU = strings.TrimSpace(v)
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "MemTotal:") {
				fmt.Sscanf(strings.TrimPrefix(l, "MemTotal:"), "%d", &kb)
			}
		}
		h.MemTotal = kb * 1024
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		h.Kernel = strings.TrimSpace(string(b))
	}
	return h
}

// filesystemOf names the file system dir is on, from the mount table: the
// mount point that is the longest prefix of dir ("tmpfs on /dev/shm").
func filesystemOf(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	best, fstype := "", ""
	for _, l := range strings.Split(string(b), "\n") {
		// ID parent major:minor root mountpoint options... - fstype source superoptions
		f := strings.Fields(l)
		sep := -1
		for i, x := range f {
			if x == "-" {
				sep = i
				break
			}
		}
		if len(f) < 5 || sep < 0 || sep+1 >= len(f) {
			continue
		}
		mp := f[4]
		if (abs == mp || strings.HasPrefix(abs, strings.TrimSuffix(mp, "/")+"/")) && len(mp) >= len(best) {
			best, fstype = mp, f[sep+1]
		}
	}
	if best == "" {
		return ""
	}
	return fstype + " on " + best
}
