// Command benchsuite runs benchmark suites (YAML files naming engines and
// passes, see docs/SUITES.md) with resource sampling and writes the
// comparison report:
//
//	benchsuite [flags] SUITE.yaml...
//
// Without -db_bench/-memtablerep_bench it builds them with `go build` from
// the module it is run in, into a cache folder (never the working tree);
// the go command's build cache makes that cheap when nothing changed and
// rebuilds when the source or -tags did. The exit status is 0 when every
// process succeeded and the engines' read checksums agree, 1 when not (the
// report is written either way), 2 on a usage error; -help exits 0.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/godbbench/godbbench/tools/report"
	"github.com/godbbench/godbbench/tools/runner"
	"github.com/godbbench/godbbench/tools/suite"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

const usage = `usage: benchsuite [flags] SUITE.yaml...

Runs every pass of each suite file on every engine, each as its own process
under the memory sampler, and writes the report (index.html, summary.md,
summary.json, raw logs) to OUTPUT/RUN-ID/, and a history page to
OUTPUT/index.html. The suite format is in docs/SUITES.md; shipped suites are
under testdata/suites (smoke.yaml runs in under a minute).

Flags:
`

// options are benchsuite's flags.
type options struct {
	dbBench, memBench, output, tags, cache string
	engines, passes                        string
	sampleInterval                         time.Duration
	repeat                                 int
	dryRun                                 bool
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("benchsuite", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.dbBench, "db_bench", "", "our db_bench binary (default: built from this module into -cache)")
	fs.StringVar(&o.memBench, "memtablerep_bench", "", "our memtablerep_bench binary (default: built from this module into -cache)")
	fs.StringVar(&o.output, "output", "", "output folder (overrides the suite's output:)")
	fs.StringVar(&o.tags, "tags", "", "build tags for the binaries benchsuite builds (e.g. rocksdb)")
	fs.StringVar(&o.cache, "cache", "", "folder for the binaries benchsuite builds (default: the user cache folder's godbbench/bin)")
	fs.StringVar(&o.engines, "engines", "", "comma-separated engines to run (default: all of the suite's)")
	fs.StringVar(&o.passes, "passes", "", "comma-separated passes to run (default: all of the suite's)")
	fs.DurationVar(&o.sampleInterval, "sample_interval", 0, "memory sampling interval after a process's first 10 s (overrides the suite's sample_interval:, default 200ms)")
	fs.IntVar(&o.repeat, "repeat", 0, "run each suite N times; the report shows medians and spread (overrides the suite's repeat:)")
	fs.BoolVar(&o.dryRun, "dry_run", false, "print the commands each suite would run, and run nothing")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "benchsuite: no suite file given")
		fs.Usage()
		return 2
	}
	var suites []*suite.Suite
	for _, path := range fs.Args() {
		s, err := loadSuite(path, &o)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		suites = append(suites, s)
	}
	bins, err := binaries(&o, stderr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if o.dryRun {
		for _, s := range suites {
			printPlan(stdout, s, bins)
		}
		return 0
	}
	code := 0
	for _, s := range suites {
		if runSuite(s, bins, stderr) != 0 {
			code = 1
		}
	}
	return code
}

// loadSuite reads a suite file and applies the command line's overrides.
func loadSuite(path string, o *options) (*suite.Suite, error) {
	s, err := suite.Load(path)
	if err != nil {
		return nil, err
	}
	if o.output != "" {
		s.Output = o.output
	}
	if o.sampleInterval > 0 {
		s.SampleInterval = o.sampleInterval
	}
	if o.repeat > 0 {
		s.Repeat = o.repeat
	}
	if err := s.Select(list(o.engines), list(o.passes)); err != nil {
		return nil, err
	}
	return s, nil
}

func list(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func printPlan(w io.Writer, s *suite.Suite, bins runner.Binaries) {
	fmt.Fprintf(w, "# suite %s (%s): output %s, scratch %s\n", s.Name, s.File, s.Output, s.Scratch)
	for _, p := range runner.Plan(s, bins) {
		if p.Skipped {
			fmt.Fprintf(w, "# pass %s on %s: skipped\n", p.Pass, p.Engine)
			continue
		}
		fmt.Fprintf(w, "# pass %s on %s\n%s\n", p.Pass, p.Engine, strings.Join(p.Command, " "))
	}
}

func runSuite(s *suite.Suite, bins runner.Binaries, stderr io.Writer) int {
	r, err := runner.Execute(s, bins, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", s.File, err)
		return 1
	}
	if err := report.Write(r); err != nil {
		fmt.Fprintf(stderr, "%s: report: %v\n", s.File, err)
		return 1
	}
	fmt.Fprintf(stderr, "report: %s\n", filepath.Join(r.Dir, "index.html"))
	code := 0
	for _, m := range r.Mismatches {
		fmt.Fprintf(stderr, "CHECKSUM MISMATCH: %s\n", m)
		code = 1
	}
	for _, pr := range r.Results {
		if pr.Failed() {
			fmt.Fprintf(stderr, "FAILED: pass %s on %s: %s: %s (log %s)\n", pr.Pass, pr.Engine, pr.Status, pr.Failure, pr.LogFile)
			code = 1
		}
	}
	return code
}

// binaries returns the programs to run: the paths given, or ones built
// from this module into the cache folder.
func binaries(o *options, stderr io.Writer) (runner.Binaries, error) {
	var bins runner.Binaries
	var err error
	if bins.DBBench, err = binary(o.dbBench, "db_bench", o, stderr); err != nil {
		return bins, err
	}
	if bins.MemtablerepBench, err = binary(o.memBench, "memtablerep_bench", o, stderr); err != nil {
		return bins, err
	}
	if o.dbBench == "" || o.memBench == "" {
		if root, err := moduleRoot(); err == nil {
			bins.Source = gitRevision(root)
		}
	}
	return bins, nil
}

// gitRevision is the commit checked out in dir and whether tracked files
// differ from it, or nil outside git; the report uses it for the binaries
// benchsuite built when the go command did not stamp them.
func gitRevision(dir string) *runner.SourceRevision {
	rev, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return nil
	}
	status, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no").Output()
	if err != nil {
		return nil
	}
	return &runner.SourceRevision{Revision: strings.TrimSpace(string(rev)), Modified: len(strings.TrimSpace(string(status))) > 0}
}

// binary returns path made absolute if given, else builds ./cmd/name of the
// enclosing module into the cache folder (one folder per set of tags).
func binary(path, name string, o *options, stderr io.Writer) (string, error) {
	if path != "" {
		return filepath.Abs(path)
	}
	root, err := moduleRoot()
	if err != nil {
		return "", fmt.Errorf("-%s not given and no godbbench module to build it from: %v", name, err)
	}
	cache := o.cache
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("-%s and -cache not given and no user cache folder: %v", name, err)
		}
		cache = filepath.Join(dir, "godbbench", "bin")
	}
	tagDir := "notags"
	if o.tags != "" {
		tagDir = "tags-" + strings.NewReplacer(",", "_", " ", "_", "/", "_").Replace(o.tags)
	}
	out, err := filepath.Abs(filepath.Join(cache, tagDir, name))
	if err != nil {
		return "", err
	}
	args := []string{"build", "-o", out}
	if o.tags != "" {
		args = append(args, "-tags", o.tags)
	}
	cmd := exec.Command("go", append(args, "./cmd/"+name)...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = stderr, stderr
	fmt.Fprintf(stderr, "building %s (go %s in %s)\n", out, strings.Join(cmd.Args[1:], " "), root)
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build ./cmd/%s failed (or pass -%s): %v", name, name, err)
	}
	return out, nil
}

// moduleRoot is the folder of the go.mod of the module benchsuite runs in
// (the current directory's), which must be godbbench's.
func moduleRoot() (string, error) {
	b, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	gomod := strings.TrimSpace(string(b))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("the current directory is not inside a Go module")
	}
	root := filepath.Dir(gomod)
	if _, err := os.Stat(filepath.Join(root, "cmd", "db_bench")); err != nil {
		return "", fmt.Errorf("%s is not godbbench's module", root)
	}
	return root, nil
}
