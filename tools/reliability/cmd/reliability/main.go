// Command reliability runs the project's data-safety probes (package
// tools/reliability) and prints the results as the Markdown tables of
// docs/RELIABILITY.md.
//
//	go build -o db_bench ./cmd/db_bench
//	go run ./tools/reliability/cmd/reliability -long > /tmp/tables.md
//
// Built with -tags rocksdb, -engines may name rocksdb too.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/godbbench/godbbench/tools/reliability"
)

func main() {
	reliability.RunChildIfRequested()
	long := flag.Bool("long", false, "the long mode: 200 kill cycles per configuration, 40 flips and 13 truncations per file kind")
	engines := flag.String("engines", "native,pebble", "engines to probe, comma-separated")
	probes := flag.String("probes", "crash,matrix,enospc,badinput", "probes to run, comma-separated")
	cycles := flag.Int("cycles", 0, "kill cycles per configuration (0: 10, or 200 with -long)")
	flips := flag.Int("flips", 0, "byte flips per file kind (0: 4, or 40 with -long)")
	ours := flag.String("ours", "./db_bench", "this project's db_bench binary, for the bad-input probes")
	cxx := flag.String("cxx", "/usr/bin/db_bench", "C++ db_bench 7.8.3, for the bad-input probes")
	seed := flag.Int64("seed", 0, "random seed (0: the time)")
	flag.Parse()
	if *seed == 0 {
		*seed = time.Now().UnixNano()
	}
	if *cycles == 0 {
		*cycles = 10
		if *long {
			*cycles = 200
		}
	}
	cuts := 0
	if *flips == 0 {
		*flips = 4
		if *long {
			*flips, cuts = 40, 10
		}
	}
	want := func(list, name string) bool {
		for _, s := range strings.Split(list, ",") {
			if strings.TrimSpace(s) == name {
				return true
			}
		}
		return false
	}
	tmp, err := os.MkdirTemp("", "reliability")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer os.RemoveAll(tmp)
	dir := func() string {
		d, err := os.MkdirTemp(tmp, "run")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return d
	}
	host, _ := os.Hostname()
	fmt.Printf("Generated %s on %s (%s/%s, %d CPUs), seed %d, %s mode.\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), host, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), *seed, map[bool]string{true: "long", false: "default"}[*long])
	var body bytes.Buffer
	var ecs []reliability.EngineConfig
	for _, e := range strings.Split(*engines, ",") {
		ecs = append(ecs, reliability.EngineConfig{Engine: strings.TrimSpace(e)})
	}
	tools := func() []reliability.Tool {
		t := []reliability.Tool{{Name: "C++ db_bench 7.8.3", Bin: *cxx}}
		for _, ec := range ecs {
			if ec.Engine != "rocksdb" {
				t = append(t, reliability.Tool{Name: "ours, " + ec.Engine, Bin: *ours, Args: []string{"--engine=" + ec.Engine}})
			}
		}
		return t
	}
	var (
		crashRs  []reliability.CrashResult
		matrixRs []reliability.MatrixResult
		enospcRs []reliability.ENOSPCResult
	)
	if want(*probes, "crash") {
		fmt.Fprintf(&body, "\n### Crash loop (%d cycles per row)\n\n", *cycles)
		var rs []reliability.CrashResult
		for _, ec := range ecs {
			cfgs := []reliability.Config{{Sync: true}, {}}
			switch ec.Engine {
			case "native":
				cfgs = append(cfgs, reliability.Config{MmapWrite: true}, reliability.Config{DisableWAL: true})
			case "rocksdb":
				cfgs = append(cfgs, reliability.Config{DisableWAL: true})
			}
			for _, c := range cfgs {
				progress("crash %s %s", ec.Engine, c.Name())
				rs = append(rs, reliability.RunCrashLoop(reliability.CrashLoop{Engine: ec.Engine, Config: c, Cycles: *cycles, Seed: *seed, Dir: dir()}))
			}
		}
		reliability.WriteCrashTable(&body, rs)
		crashRs = rs
	}
	if want(*probes, "matrix") {
		fmt.Fprintf(&body, "\n### Corruption matrix (%d flips and %d truncations per file kind, one deletion)\n", *flips, 3+cuts)
		var rs []reliability.MatrixResult
		for _, ec := range ecs {
			cfgs := []reliability.Config{{}}
			if ec.Engine == "native" {
				cfgs = append(cfgs, reliability.Config{MmapRead: true})
			}
			for _, c := range cfgs {
				progress("matrix %s %s", ec.Engine, c.Name())
				rs = append(rs, reliability.RunMatrix(reliability.Matrix{Engine: ec.Engine, Config: c, Seed: *seed, Flips: *flips, Cuts: cuts, Dir: dir()}))
			}
		}
		reliability.WriteMatrixTables(&body, rs, 12)
		matrixRs = rs
	}
	if want(*probes, "enospc") {
		runs := 3
		if *long {
			runs = 5
		}
		fmt.Fprintf(&body, "\n### ENOSPC (8 MiB tmpfs, %d runs per row)\n\n", runs)
		var rs []reliability.ENOSPCResult
		for _, ec := range ecs {
			cfgs := []reliability.Config{{Sync: true}}
			if ec.Engine == "native" {
				cfgs = append(cfgs, reliability.Config{MmapWrite: true})
			}
			for _, c := range cfgs {
				progress("enospc %s %s", ec.Engine, c.Name())
				for i := 0; i < runs; i++ {
					rs = append(rs, reliability.RunENOSPC(ec.Engine, c, dir(), 8, *seed+int64(i), 15*time.Second))
				}
			}
		}
		reliability.WriteENOSPCTable(&body, rs)
		enospcRs = rs
		fmt.Fprintf(&body, "\n#### db_bench fillrandom --sync=1 --value_size=1024 on an 8 MiB tmpfs\n\n")
		fmt.Fprintln(&body, "| db_bench | outcome |")
		fmt.Fprintln(&body, "|---|---|")
		for _, t := range tools() {
			progress("enospc %s", t.Name)
			r := reliability.RunDbBenchENOSPC(t, dir(), 60*time.Second)
			fmt.Fprintf(&body, "| %s | exit %s: %s |\n", t.Name, r.Exit, strings.ReplaceAll(r.Message, "|", `\|`))
		}
	}
	if want(*probes, "badinput") {
		fmt.Fprintf(&body, "\n### Bad input\n\n")
		tools := tools()
		probes := reliability.BadInputs()
		res := make([][]reliability.BadInputResult, len(probes))
		for i, p := range probes {
			progress("bad input: %s", p.Name)
			for _, t := range tools {
				res[i] = append(res[i], reliability.RunBadInput(p, t, dir()))
			}
		}
		reliability.WriteBadInputTable(&body, probes, tools, res)
	}
	var names []string
	for _, ec := range ecs {
		names = append(names, ec.Engine)
	}
	fmt.Printf("\n### Summary\n\n")
	reliability.WriteSummary(os.Stdout, names, crashRs, matrixRs, enospcRs)
	os.Stdout.Write(body.Bytes())
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, time.Now().Format("15:04:05 ")+format+"\n", args...)
}
