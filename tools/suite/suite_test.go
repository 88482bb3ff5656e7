package suite

import (
	"strings"
	"testing"
	"time"
)

const good = `
name: t
timeout: 5m
sample_interval: 1s
repeat: 3
flags: [--seed=1]
engines:
  - name: native
    engine: native
  - name: cpp
    binary: /usr/bin/db_bench
passes:
  - name: fill
    benchmarks: fillrandom,readrandom
  - name: omit
    benchmarks: readseq
    existing_db: fill
    skip: [cpp]
  - name: mem
    tool: memtablerep_bench
`

func TestParseGood(t *testing.T) {
	s, err := Parse([]byte(good), "good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "t" || s.Timeout != 5*time.Minute || s.SampleInterval != time.Second || s.Repeat != 3 || len(s.Engines) != 2 || len(s.Passes) != 3 || s.Baseline != "native" {
		t.Fatalf("%+v", s)
	}
	if !s.Engines[1].External() || !s.Passes[1].Skips("cpp") || s.Passes[2].Tool != "memtablerep_bench" {
		t.Fatalf("%+v", s)
	}
	if d, _ := Parse([]byte("engines: [{name: a, engine: native}]\npasses: [{name: p, benchmarks: x}]\n"), "d.yaml"); d.SampleInterval != 200*time.Millisecond || d.Repeat != 1 {
		t.Errorf("default sample interval %v", d.SampleInterval)
	}
}

func TestErrorsNameFileLineField(t *testing.T) {
	cases := []struct{ doc, want string }{
		{"engines: [{name: a, engine: native}]\npasses:\n  - name: p\n    benchmark: x\n", "bad.yaml:4: benchmark: unknown field in pass"},
		{"engines:\n  - name: a\npasses: [{name: p, benchmarks: x}]\n", "bad.yaml:2: engine: engine \"a\" needs either engine: (ours) or binary: (external)"},
		{"engines: [{name: a, engine: native}]\npasses:\n  - name: p\n    benchmarks: x\n    existing_db: q\n", "bad.yaml:3: existing_db: no earlier pass is named \"q\""},
		{"timeout: soon\nengines: [{name: a, engine: native}]\npasses: [{name: p, benchmarks: x}]\n", "bad.yaml:1: timeout: want a positive duration"},
		{"sample_interval: 0s\nengines: [{name: a, engine: native}]\npasses: [{name: p, benchmarks: x}]\n", "bad.yaml:1: sample_interval: want a positive duration such as 500ms, got \"0s\""},
		{"repeat: 0\nengines: [{name: a, engine: native}]\npasses: [{name: p, benchmarks: x}]\n", "bad.yaml:1: repeat: want a count of rounds, 1 or more, got \"0\""},
		{"repeat: many\nengines: [{name: a, engine: native}]\npasses: [{name: p, benchmarks: x}]\n", "bad.yaml:1: repeat: want a count of rounds"},
		{"engines: [{name: a, engine: native}]\n", "bad.yaml:1: passes: at least one pass is required"},
		{"engines: [{name: a, engine: native}\n", "bad.yaml:"},
		{"baseline: z\nengines: [{name: a, engine: native}]\npasses: [{name: p, benchmarks: x}]\n", "baseline: no engine is named \"z\""},
		{"passes: [{name: p, benchmarks: x, skip: [zz]}]\nengines: [{name: a, engine: native}]\n", "bad.yaml:1: skip: no engine is named \"zz\""},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.doc), "bad.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("doc %q: error %v, want %q", c.doc, err, c.want)
		}
	}
}

func TestSelect(t *testing.T) {
	s, _ := Parse([]byte(good), "good.yaml")
	if err := s.Select([]string{"cpp"}, []string{"fill", "omit"}); err != nil {
		t.Fatal(err)
	}
	if len(s.Engines) != 1 || s.Baseline != "cpp" || len(s.Passes) != 2 || s.Passes[1].Name != "omit" {
		t.Fatalf("%+v", s)
	}
	for _, c := range []struct {
		engines, passes []string
		want            string
	}{
		{[]string{"nope"}, nil, `good.yaml: no engine is named "nope"`},
		{nil, []string{"nope"}, `good.yaml: no pass is named "nope"`},
		{nil, []string{"omit"}, `good.yaml: pass "omit" reuses the DB of pass "fill": select both`},
	} {
		s, _ := Parse([]byte(good), "good.yaml")
		if err := s.Select(c.engines, c.passes); err == nil || err.Error() != c.want {
			t.Errorf("Select(%q, %q) = %v, want %q", c.engines, c.passes, err, c.want)
		}
	}
}
