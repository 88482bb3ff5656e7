// Package suite reads benchmark-suite files: YAML documents that name the
// engines to compare (our db_bench with an --engine, or any external
// db_bench-compatible binary by path), the passes to run on each (benchmark
// lists with flags, a key-only pass in a new process on the existing DB, a
// memtablerep_bench pass), the scratch directory and the output folder.
// docs/SUITES.md documents the format for users, with the report.
//
// Format (every field but engines and passes is optional):
//
//	name: fillrandom-small            # report title; default: file name
//	scratch: /dev/shm                 # DB directories live here; default /dev/shm when it exists
//	output: out/suites                # one folder per run under it; default out/suites
//	baseline: rocksdb                 # engine the ratios are computed against; default: first engine
//	timeout: 30m                      # per pass; default 60m
//	sample_interval: 500ms            # memory sampling after the first 10 s (100 ms before); default 200ms
//	repeat: 3                         # run the whole suite 3 times; the report shows medians and spread
//	flags: [--seed=1, --num=100000]   # added to every db_bench pass
//	engines:
//	  - name: native                  # label in the report
//	    engine: native                # our db_bench with --engine=native
//	    flags: [--memtablerep=cspp]   # engine-specific flags
//	  - name: rocksdb-cpp
//	    binary: /usr/bin/db_bench     # an external db_bench
//	passes:
//	  - name: fillrandom
//	    benchmarks: fillrandom,flush,compact,readseq,readrandom
//	    flags: [--batch_size=1000]
//	  - name: fillrandom-omit
//	    benchmarks: readseq,readseq
//	    existing_db: fillrandom       # reuse that pass's DB (adds --use_existing_db=1)
//	    flags: [--scan_omit_value]
//	    skip: [rocksdb-cpp]           # engines that cannot run this pass
//	  - name: memtable
//	    tool: memtablerep_bench       # run memtablerep_bench instead of db_bench
//	    flags: [--num_operations=1000000]
//
// Errors name the file, the line and the field.
package suite

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Suite is one parsed suite file.
type Suite struct {
	Name     string
	File     string
	Scratch  string
	Output   string
	Baseline string
	Timeout  time.Duration
	// SampleInterval is the memory sampling interval once a process has
	// run 10 s (see tools/sampler).
	SampleInterval time.Duration
	Repeat         int // rounds of the whole suite; the report shows medians
	Flags          []string
	Engines        []Engine
	Passes         []Pass
}

// Engine is one contender.
type Engine struct {
	Name   string
	Engine string   // --engine value for our db_bench; empty for external binaries
	Binary string   // external db_bench path; empty for ours
	Flags  []string // added to every pass of this engine
}

// External reports whether the engine is an external binary.
func (e *Engine) External() bool { return e.Binary != "" }

// Pass is one process run per engine.
type Pass struct {
	Name       string
	Tool       string // "db_bench" (default) or "memtablerep_bench"
	Benchmarks string
	Flags      []string
	ExistingDB string // name of an earlier pass whose DB is reused
	Skip       []string
	Line       int
}

// Skips reports whether engine e sits this pass out.
func (p *Pass) Skips(e string) bool { return contains(p.Skip, e) }

// Error is a suite-file problem at a position.
type Error struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *Error) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Field, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Load reads and validates a suite file.
func Load(path string) (*Suite, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Parse parses suite YAML; file names the source in errors.
func Parse(data []byte, file string) (*Suite, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, &Error{File: file, Line: yamlErrLine(err), Msg: err.Error()}
	}
	if len(root.Content) == 0 {
		return nil, &Error{File: file, Line: 1, Msg: "empty suite file"}
	}
	doc := root.Content[0]
	p := parser{file: file}
	s := &Suite{File: file, Timeout: 60 * time.Minute, SampleInterval: 200 * time.Millisecond, Repeat: 1, Output: "out/suites"}
	if err := p.mapping(doc, "suite", map[string]func(*yaml.Node) error{
		"name":            func(n *yaml.Node) error { return p.str(n, "name", &s.Name) },
		"scratch":         func(n *yaml.Node) error { return p.str(n, "scratch", &s.Scratch) },
		"output":          func(n *yaml.Node) error { return p.str(n, "output", &s.Output) },
		"baseline":        func(n *yaml.Node) error { return p.str(n, "baseline", &s.Baseline) },
		"timeout":         func(n *yaml.Node) error { return p.duration(n, "timeout", "30m", &s.Timeout) },
		"sample_interval": func(n *yaml.Node) error { return p.duration(n, "sample_interval", "500ms", &s.SampleInterval) },
		"repeat": func(n *yaml.Node) error {
			if err := n.Decode(&s.Repeat); err != nil || s.Repeat < 1 {
				return p.errf(n, "repeat", "want a count of rounds, 1 or more, got %q", n.Value)
			}
			return nil
		},
		"flags":   func(n *yaml.Node) error { return p.strs(n, "flags", &s.Flags) },
		"engines": func(n *yaml.Node) error { return p.engines(n, s) },
		"passes":  func(n *yaml.Node) error { return p.passes(n, s) },
	}); err != nil {
		return nil, err
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	if len(s.Engines) == 0 {
		return nil, p.errf(doc, "engines", "at least one engine is required")
	}
	if len(s.Passes) == 0 {
		return nil, p.errf(doc, "passes", "at least one pass is required")
	}
	for i := range s.Passes {
		for _, sk := range s.Passes[i].Skip {
			if s.engine(sk) == nil {
				return nil, &Error{File: file, Line: s.Passes[i].Line, Field: "skip", Msg: fmt.Sprintf("no engine is named %q", sk)}
			}
		}
	}
	if s.Baseline == "" {
		s.Baseline = s.Engines[0].Name
	} else if s.engine(s.Baseline) == nil {
		return nil, p.errf(doc, "baseline", "no engine is named %q", s.Baseline)
	}
	if s.Scratch == "" {
		s.Scratch = os.TempDir()
		if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
			s.Scratch = "/dev/shm"
		}
	}
	return s, nil
}

func (s *Suite) engine(name string) *Engine {
	for i := range s.Engines {
		if s.Engines[i].Name == name {
			return &s.Engines[i]
		}
	}
	return nil
}

type parser struct{ file string }

func (p *parser) errf(n *yaml.Node, field, format string, a ...any) error {
	return &Error{File: p.file, Line: n.Line, Field: field, Msg: fmt.Sprintf(format, a...)}
}

// mapping walks a YAML mapping, rejecting unknown keys.
func (p *parser) mapping(n *yaml.Node, what string, fields map[string]func(*yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return p.errf(n, what, "want a mapping")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		fn, ok := fields[k.Value]
		if !ok {
			return p.errf(k, k.Value, "unknown field in %s", what)
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) str(n *yaml.Node, field string, dst *string) error {
	if n.Kind != yaml.ScalarNode {
		return p.errf(n, field, "want a string")
	}
	*dst = n.Value
	return nil
}

// duration parses a positive duration; example shows the form in errors.
func (p *parser) duration(n *yaml.Node, field, example string, dst *time.Duration) error {
	var v string
	if err := p.str(n, field, &v); err != nil {
		return err
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return p.errf(n, field, "want a positive duration such as %s, got %q", example, v)
	}
	*dst = d
	return nil
}

func (p *parser) strs(n *yaml.Node, field string, dst *[]string) error {
	if n.Kind == yaml.ScalarNode {
		*dst = strings.Fields(n.Value)
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, field, "want a list of strings")
	}
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode {
			return p.errf(c, field, "want a string")
		}
		*dst = append(*dst, c.Value)
	}
	return nil
}

func (p *parser) engines(n *yaml.Node, s *Suite) error {
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, "engines", "want a list")
	}
	seen := map[string]bool{}
	for _, c := range n.Content {
		var e Engine
		if err := p.mapping(c, "engine", map[string]func(*yaml.Node) error{
			"name":   func(v *yaml.Node) error { return p.str(v, "name", &e.Name) },
			"engine": func(v *yaml.Node) error { return p.str(v, "engine", &e.Engine) },
			"binary": func(v *yaml.Node) error { return p.str(v, "binary", &e.Binary) },
			"flags":  func(v *yaml.Node) error { return p.strs(v, "flags", &e.Flags) },
		}); err != nil {
			return err
		}
		switch {
		case e.Name == "":
			return p.errf(c, "name", "every engine needs a name")
		case seen[e.Name]:
			return p.errf(c, "name", "engine %q is listed twice", e.Name)
		case e.Engine == "" && e.Binary == "":
			return p.errf(c, "engine", "engine %q needs either engine: (ours) or binary: (external)", e.Name)
		case e.Engine != "" && e.Binary != "":
			return p.errf(c, "binary", "engine %q sets both engine: and binary:", e.Name)
		}
		seen[e.Name] = true
		s.Engines = append(s.Engines, e)
	}
	return nil
}

func (p *parser) passes(n *yaml.Node, s *Suite) error {
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, "passes", "want a list")
	}
	seen := map[string]bool{}
	for _, c := range n.Content {
		ps := Pass{Tool: "db_bench", Line: c.Line}
		if err := p.mapping(c, "pass", map[string]func(*yaml.Node) error{
			"name":        func(v *yaml.Node) error { return p.str(v, "name", &ps.Name) },
			"tool":        func(v *yaml.Node) error { return p.str(v, "tool", &ps.Tool) },
			"benchmarks":  func(v *yaml.Node) error { return p.str(v, "benchmarks", &ps.Benchmarks) },
			"flags":       func(v *yaml.Node) error { return p.strs(v, "flags", &ps.Flags) },
			"existing_db": func(v *yaml.Node) error { return p.str(v, "existing_db", &ps.ExistingDB) },
			"skip":        func(v *yaml.Node) error { return p.strs(v, "skip", &ps.Skip) },
		}); err != nil {
			return err
		}
		switch {
		case ps.Name == "":
			return p.errf(c, "name", "every pass needs a name")
		case seen[ps.Name]:
			return p.errf(c, "name", "pass %q is listed twice", ps.Name)
		case ps.Tool != "db_bench" && ps.Tool != "memtablerep_bench":
			return p.errf(c, "tool", "want db_bench or memtablerep_bench, got %q", ps.Tool)
		case ps.Tool == "db_bench" && ps.Benchmarks == "":
			return p.errf(c, "benchmarks", "pass %q needs a benchmark list", ps.Name)
		case ps.ExistingDB != "" && !seen[ps.ExistingDB]:
			return p.errf(c, "existing_db", "no earlier pass is named %q", ps.ExistingDB)
		}
		seen[ps.Name] = true
		s.Passes = append(s.Passes, ps)
	}
	return nil
}

// yamlErrLine pulls "line N" out of a yaml.v3 error.
func yamlErrLine(err error) int {
	var line int
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		fmt.Sscanf(msg[i+5:], "%d", &line)
	}
	if line == 0 {
		line = 1
	}
	return line
}

// Select keeps only the named engines and passes (all of them when a list
// is empty), in the suite's order. A kept pass whose existing_db pass is
// left out is an error; when the baseline is left out, the first kept
// engine becomes the baseline.
func (s *Suite) Select(engines, passes []string) error {
	if len(engines) > 0 {
		var kept []Engine
		for _, name := range engines {
			if s.engine(name) == nil {
				return fmt.Errorf("%s: no engine is named %q", s.File, name)
			}
		}
		for _, e := range s.Engines {
			if contains(engines, e.Name) {
				kept = append(kept, e)
			}
		}
		s.Engines = kept
		if s.engine(s.Baseline) == nil {
			s.Baseline = s.Engines[0].Name
		}
	}
	if len(passes) > 0 {
		var kept []Pass
		for _, name := range passes {
			found := false
			for _, p := range s.Passes {
				found = found || p.Name == name
			}
			if !found {
				return fmt.Errorf("%s: no pass is named %q", s.File, name)
			}
		}
		for _, p := range s.Passes {
			if !contains(passes, p.Name) {
				continue
			}
			if p.ExistingDB != "" && !contains(passes, p.ExistingDB) {
				return fmt.Errorf("%s: pass %q reuses the DB of pass %q: select both", s.File, p.Name, p.ExistingDB)
			}
			kept = append(kept, p)
		}
		s.Passes = kept
	}
	return nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
