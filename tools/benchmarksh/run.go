package benchmarksh

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Jobs are the benchmark.sh jobs, in the script's order, that db_bench runs
// on every engine.
var Jobs = []string{
	"bulkload", "fillseq_disable_wal", "fillseq_enable_wal", "overwrite", "updaterandom",
	"readrandom", "fwdrange", "revrange", "readwhilewriting", "fwdrangewhilewriting", "revrangewhilewriting",
}

// ScriptPath is where benchmark.sh is looked for, relative to each
// directory from the repository root up: the project keeps the script
// beside its checkouts, not in them.
const ScriptPath = "shared/ext/rocksdb-7.8.3/benchmark.sh"

// FindScript returns the first ScriptPath found in dir or one of its
// ancestors, "" when there is none.
func FindScript(dir string) string {
	for {
		p := filepath.Join(dir, ScriptPath)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Config is one run of the script.
type Config struct {
	Script  string   // path of benchmark.sh
	DBBench string   // the db_bench binary to run as ./db_bench
	WorkDir string   // scratch directory: ./db_bench, db, wal, out, shims
	Engine  string   // --engine for every db_bench call; "" for the default
	Jobs    []string // jobs, run in one invocation
	Env     []string // extra VAR=value settings (NUM_KEYS, NUM_THREADS, ...)
}

// ReportPath is where a run with cfg writes report.tsv.
func (cfg *Config) ReportPath() string { return filepath.Join(cfg.WorkDir, "out", "report.tsv") }

// Run prepares cfg.WorkDir and runs the script there; it returns the
// script's combined output and an error when it exits non-zero.
func Run(cfg *Config) (string, error) {
	shims := filepath.Join(cfg.WorkDir, "shims")
	if err := os.MkdirAll(shims, 0o755); err != nil {
		return "", err
	}
	for _, tool := range []string{"iostat", "vmstat", "killall"} {
		if err := os.WriteFile(filepath.Join(shims, tool), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			return "", err
		}
	}
	if err := placeDBBench(cfg); err != nil {
		return "", err
	}
	cmd := exec.Command("bash", cfg.Script, strings.Join(cfg.Jobs, ","))
	cmd.Dir = cfg.WorkDir
	cmd.Env = append(os.Environ(),
		"PATH="+shims+string(os.PathListSeparator)+os.Getenv("PATH"),
		"DB_DIR="+filepath.Join(cfg.WorkDir, "db"),
		"WAL_DIR="+filepath.Join(cfg.WorkDir, "wal"),
		"OUTPUT_DIR="+filepath.Join(cfg.WorkDir, "out"))
	cmd.Env = append(cmd.Env, cfg.Env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("benchmark.sh %s: %w", strings.Join(cfg.Jobs, ","), err)
	}
	return string(out), nil
}

// placeDBBench puts ./db_bench in the work directory: a copy of the binary,
// or, to pick an engine, a shell script that runs it with --engine first
// (the script's flags come after it and cannot unset it).
func placeDBBench(cfg *Config) error {
	dst := filepath.Join(cfg.WorkDir, "db_bench")
	if cfg.Engine == "" {
		bin, err := os.ReadFile(cfg.DBBench)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, bin, 0o755)
	}
	abs, err := filepath.Abs(cfg.DBBench)
	if err != nil {
		return err
	}
	wrapper := fmt.Sprintf("#!/bin/sh\nexec '%s' --engine=%s \"$@\"\n", abs, cfg.Engine)
	return os.WriteFile(dst, []byte(wrapper), 0o755)
}
