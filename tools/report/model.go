// Package report turns a suite run into the comparison report ToplingDB
// publishes: a Markdown summary and one self-contained HTML page with SVG
// charts (ops/s per benchmark per engine with ratios to the baseline, peak
// RSS, DB size, RAM over time with stage bands, latency percentiles), plus a
// history index across runs.
package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/godbbench/godbbench/tools/runner"
)

// cell is one table cell; ratio > 0 adds "(N.NNx)" coloured better or worse.
type cell struct {
	text   string
	ratio  float64
	better bool // ratio > 1 is better (ops/s) or worse (bytes)
}

type table struct {
	title  string
	header []string
	rows   [][]cell
}

// occurrence labels repeated benchmarks: readseq, readseq #2, readseq #3.
func occurrences(names []string) []string {
	seen := map[string]int{}
	out := make([]string, len(names))
	for i, n := range names {
		seen[n]++
		if seen[n] == 1 {
			out[i] = n
		} else {
			out[i] = fmt.Sprintf("%s #%d", n, seen[n])
		}
	}
	return out
}

type benchValue struct {
	opsPerSec float64
	seconds   float64
	ops       int64
}

// passValues maps occurrence label -> value for one pass on one engine.
func passValues(pr *runner.PassResult) (order []string, vals map[string]benchValue) {
	vals = map[string]benchValue{}
	if pr == nil {
		return nil, vals
	}
	names := make([]string, len(pr.Lines))
	for i, l := range pr.Lines {
		names[i] = l.Name
	}
	order = occurrences(names)
	for i, l := range pr.Lines {
		vals[order[i]] = benchValue{opsPerSec: float64(l.OpsPerSec), seconds: l.Seconds, ops: l.Ops}
	}
	return order, vals
}

func fmtInt(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && c != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// opsTable compares ops/s per benchmark of one db_bench pass.
func opsTable(run *runner.Run, pass string) table {
	s := run.Suite
	t := table{title: "Pass " + pass + ": ops/sec (ratio to " + s.Baseline + ")", header: []string{"benchmark"}}
	var order []string
	seen := map[string]bool{}
	per := map[string]map[string]benchValue{}
	for _, e := range s.Engines {
		t.header = append(t.header, e.Name)
		o, v := passValues(run.Result(pass, e.Name))
		per[e.Name] = v
		for _, n := range o {
			if !seen[n] {
				seen[n] = true
				order = append(order, n)
			}
		}
	}
	for _, n := range order {
		row := []cell{{text: n}}
		base, hasBase := per[s.Baseline][n]
		for _, e := range s.Engines {
			v, ok := per[e.Name][n]
			if !ok {
				row = append(row, cell{text: "—"})
				continue
			}
			c := cell{text: fmtInt(v.opsPerSec), better: true}
			if v.ops <= 1 { // one-shot operations (compact): compare times
				c.text = fmt.Sprintf("%.3f s", v.seconds)
				if hasBase && v.seconds > 0 {
					c.ratio = base.seconds / v.seconds
				}
			} else if hasBase && base.opsPerSec > 0 {
				c.ratio = v.opsPerSec / base.opsPerSec
			}
			row = append(row, c)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// resourceTable compares peak RSS and DB size per pass.
func resourceTable(run *runner.Run, title string, get func(*runner.PassResult) int64) table {
	s := run.Suite
	t := table{title: title + " (ratio to " + s.Baseline + ")", header: []string{"pass"}}
	for _, e := range s.Engines {
		t.header = append(t.header, e.Name)
	}
	for _, p := range s.Passes {
		row := []cell{{text: p.Name}}
		var base int64
		if b := run.Result(p.Name, s.Baseline); b != nil && b.Sampler != nil {
			base = get(b)
		}
		any := false
		for _, e := range s.Engines {
			pr := run.Result(p.Name, e.Name)
			if pr == nil || pr.Sampler == nil {
				row = append(row, cell{text: "—"})
				continue
			}
			v := get(pr)
			c := cell{text: human(v)}
			if v > 0 {
				any = true
				if base > 0 {
					c.ratio = float64(v) / float64(base)
				}
			}
			row = append(row, c)
		}
		if any {
			t.rows = append(t.rows, row)
		}
	}
	return t
}

// statusTable lists every process with its status and times.
func statusTable(run *runner.Run) table {
	t := table{title: "Processes", header: []string{"pass", "engine", "status", "wall", "user", "sys", "peak RSS", "page cache"}}
	for _, pr := range run.Results {
		row := []cell{{text: pr.Pass}, {text: pr.Engine}, {text: pr.Status}}
		if pr.Sampler != nil {
			row = append(row, cell{text: dur(pr.Sampler.Wall)}, cell{text: dur(pr.Sampler.User)}, cell{text: dur(pr.Sampler.Sys)},
				cell{text: human(pr.Sampler.PeakRSSBytes)}, cell{text: pr.Sampler.PageCacheMethod})
		} else {
			row = append(row, cell{text: "—"}, cell{text: "—"}, cell{text: "—"}, cell{text: "—"}, cell{text: "—"})
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// latencyTable shows p50/p99/p99.9 (µs) from the JSON records when the
// passes ran with --histogram.
func latencyTable(run *runner.Run, pass string) table {
	t := table{title: "Pass " + pass + ": latency percentiles (µs, p50 / p99 / p99.9)", header: []string{"benchmark", "op"}}
	type key struct{ bench, op string }
	var order []key
	vals := map[key]map[string]string{}
	for _, e := range run.Suite.Engines {
		t.header = append(t.header, e.Name)
		pr := run.Result(pass, e.Name)
		if pr == nil {
			continue
		}
		names := make([]string, 0, len(pr.Records))
		for _, r := range pr.Records {
			if !r.Warmup {
				names = append(names, r.Benchmark)
			}
		}
		occ := occurrences(names)
		i := 0
		for _, r := range pr.Records {
			if r.Warmup {
				continue
			}
			for op, l := range r.Latency {
				k := key{occ[i], op}
				if vals[k] == nil {
					vals[k] = map[string]string{}
					order = append(order, k)
				}
				vals[k][e.Name] = fmt.Sprintf("%.1f / %.1f / %.1f", l.P50, l.P99, l.P999)
			}
			i++
		}
	}
	for _, k := range order {
		row := []cell{{text: k.bench}, {text: k.op}}
		for _, e := range run.Suite.Engines {
			v := vals[k][e.Name]
			if v == "" {
				v = "—"
			}
			row = append(row, cell{text: v})
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// memtableTable compares memtablerep_bench us/op.
func memtableTable(run *runner.Run, pass string) table {
	t := table{title: "Pass " + pass + ": memtablerep_bench (µs/op; ratio to " + run.Suite.Baseline + ")", header: []string{"benchmark"}}
	per := map[string]map[string]float64{}
	var order []string
	for _, e := range run.Suite.Engines {
		t.header = append(t.header, e.Name)
		pr := run.Result(pass, e.Name)
		if pr == nil {
			continue
		}
		per[e.Name] = map[string]float64{}
		for _, m := range pr.Mem {
			v := m.WriteMicrosOp
			if v == 0 {
				v = m.ReadMicrosOp
			}
			if _, ok := per[e.Name][m.Benchmark]; !ok && len(per) == 1 {
				order = append(order, m.Benchmark)
			}
			per[e.Name][m.Benchmark] = v
		}
	}
	for _, b := range order {
		row := []cell{{text: b}}
		base := per[run.Suite.Baseline][b]
		for _, e := range run.Suite.Engines {
			v, ok := per[e.Name][b]
			if !ok {
				row = append(row, cell{text: "—"})
				continue
			}
			c := cell{text: fmt.Sprintf("%.4g", v), better: true}
			if base > 0 && v > 0 {
				c.ratio = base / v
			}
			row = append(row, c)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

func dur(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }
