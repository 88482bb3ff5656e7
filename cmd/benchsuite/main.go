// Command benchsuite runs benchmark suites (YAML files naming engines and
// passes) with resource sampling and writes the comparison report:
//
//	benchsuite [-db_bench=PATH] [-memtablerep_bench=PATH] [-output=DIR] suite.yaml...
//
// Without -db_bench/-memtablerep_bench it uses ./db_bench and
// ./memtablerep_bench, building them with `go build` (from the module root)
// when they are missing. The exit status is 1 when a process failed or the
// engines' read checksums disagree; the report is written either way.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/godbbench/godbbench/tools/report"
	"github.com/godbbench/godbbench/tools/runner"
	"github.com/godbbench/godbbench/tools/suite"
)

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	fs := flag.NewFlagSet("benchsuite", flag.ContinueOnError)
	dbBench := fs.String("db_bench", "", "our db_bench binary (default ./db_bench, built if missing)")
	memBench := fs.String("memtablerep_bench", "", "our memtablerep_bench binary (default ./memtablerep_bench, built if missing)")
	output := fs.String("output", "", "output folder (overrides the suite's output:)")
	tags := fs.String("tags", "", "build tags when building the binaries (e.g. rocksdb)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: benchsuite [flags] suite.yaml...")
		return 2
	}
	bins := runner.Binaries{}
	var err error
	if bins.DBBench, err = binary(*dbBench, "db_bench", *tags); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if bins.MemtablerepBench, err = binary(*memBench, "memtablerep_bench", *tags); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	code := 0
	for _, path := range fs.Args() {
		s, err := suite.Load(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if *output != "" {
			s.Output = *output
		}
		r, err := runner.Execute(s, bins, os.Stderr)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
			return 1
		}
		if err := report.Write(r); err != nil {
			fmt.Fprintf(os.Stderr, "%s: report: %v\n", path, err)
			return 1
		}
		fmt.Fprintf(os.Stderr, "report: %s\n", filepath.Join(r.Dir, "index.html"))
		for _, m := range r.Mismatches {
			fmt.Fprintf(os.Stderr, "CHECKSUM MISMATCH: %s\n", m)
			code = 1
		}
		for _, pr := range r.Results {
			if pr.Status != "ok" && pr.Status != "skipped" {
				fmt.Fprintf(os.Stderr, "FAILED: pass %s on %s: %s (log %s)\n", pr.Pass, pr.Engine, pr.Status, pr.LogFile)
				code = 1
			}
		}
	}
	return code
}

// binary returns path if given, ./name if it exists, or builds ./cmd/name.
func binary(path, name, tags string) (string, error) {
	if path != "" {
		return filepath.Abs(path)
	}
	if st, err := os.Stat(name); err == nil && !st.IsDir() {
		return filepath.Abs(name)
	}
	out, err := filepath.Abs(name)
	if err != nil {
		return "", err
	}
	args := []string{"build", "-o", out}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	cmd := exec.Command("go", append(args, "./cmd/"+name)...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s not found and `go build ./cmd/%s` failed (run from the module root or pass -%s): %v", name, name, name, err)
	}
	return out, nil
}
