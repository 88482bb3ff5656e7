// Package report turns a suite run into the comparison report ToplingDB
// publishes: a Markdown summary (summary.md), one self-contained HTML page
// with SVG charts (index.html), a machine-readable summary.json, and a
// history page across runs with a trend per benchmark and engine.
//
// What the report promises a reader:
//   - A pass that failed (exited non-zero, timed out, or a benchmark printed
//     an error) is announced in a banner with its reason; its numbers are
//     greyed, never compared, never bold, never drawn as bars; its peak RSS
//     and DB size read "failed". A failed baseline leaves its pass without
//     ratios.
//   - A benchmark an engine ran differently from what was asked (it printed
//     a WARNING while the benchmark ran) is marked † and not compared; the
//     warning is listed under the pass. Warnings printed before the first
//     benchmark concern the whole pass and are listed too.
//   - DB size is the apparent size (du -sb: the bytes of the files), which
//     ratios use; the allocated size (du -s -B1, which counts preallocated
//     blocks) is shown beside it.
//   - Latency comes from --report_json records, else from the text
//     histograms in the log (external C++ db_bench).
//   - The versions of every binary (module, VCS revision, tags, linked
//     pebble), of every engine (the log header's version line), of
//     benchsuite, and the machine (CPU, cores, memory, kernel, file system
//     of the DB directory) are in every page and in summary.json.
package report

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/godbbench/godbbench/dbbench/jsonrecord"
	"github.com/godbbench/godbbench/tools/runner"
)

// cell is one table cell; ratio > 0 adds "(N.NNx)" coloured better or worse.
type cell struct {
	text   string
	ratio  float64
	better bool   // ratio > 1 is better (ops/s) or worse (bytes)
	failed bool   // from a failed pass: greyed and never compared
	warned bool   // the engine ran this differently (a warning): marked †, not compared
	note   string // small print after the value
}

// note is a line printed under a table: a failure or a warning.
type note struct {
	class string // "failed" or "warning"
	text  string
}

type table struct {
	title  string
	header []string
	rows   [][]cell
	notes  []note
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
	warnings  []string
	latency   map[string]jsonrecord.Latency // from the log's text histograms
	spread    runner.Spread                 // over the rounds of a repeated suite; N = 0 without
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
		v := benchValue{opsPerSec: float64(l.OpsPerSec), seconds: l.Seconds, ops: l.Ops, warnings: l.Warnings, latency: l.Latency}
		if i < len(pr.Spread) {
			v.spread = pr.Spread[i]
		}
		vals[order[i]] = v
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

// failed reports whether engine's process of pass ran and failed.
func failed(run *runner.Run, pass, engine string) bool {
	pr := run.Result(pass, engine)
	return pr != nil && pr.Failed()
}

// passNotes lists, under a pass's table, the engines that failed it (with
// the reason) and every warning its engines printed.
func passNotes(run *runner.Run, pass string) []note {
	var out []note
	for _, e := range run.Suite.Engines {
		pr := run.Result(pass, e.Name)
		if pr == nil {
			continue
		}
		if pr.Failed() {
			out = append(out, note{"failed", fmt.Sprintf("%s failed (%s): %s", e.Name, pr.Status, pr.Failure)})
		}
		for _, w := range pr.Warnings {
			out = append(out, note{"warning", e.Name + ", whole pass: " + w})
		}
		order, vals := passValues(pr)
		for _, n := range order {
			for _, w := range vals[n].warnings {
				out = append(out, note{"warning", "† " + e.Name + ", " + n + ": " + w})
			}
		}
	}
	return out
}

// opsTable compares ops/s per benchmark of one db_bench pass.
func opsTable(run *runner.Run, pass string) table {
	s := run.Suite
	t := table{title: "Pass " + pass + ": ops/sec (ratio to " + s.Baseline + ")", header: []string{"benchmark"}, notes: passNotes(run, pass)}
	if s.Repeat > 1 {
		t.title = fmt.Sprintf("Pass %s: ops/sec, median of %d rounds ± half the range (ratio to %s)", pass, s.Repeat, s.Baseline)
	}
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
	baseFailed := failed(run, pass, s.Baseline)
	for _, n := range order {
		row := []cell{{text: n}}
		base, hasBase := per[s.Baseline][n]
		hasBase = hasBase && !baseFailed && len(base.warnings) == 0
		for _, e := range s.Engines {
			bad := failed(run, pass, e.Name)
			v, ok := per[e.Name][n]
			if !ok {
				row = append(row, missing(bad))
				continue
			}
			c := cell{text: fmtInt(v.opsPerSec), better: true, failed: bad, warned: len(v.warnings) > 0}
			if v.ops <= 1 { // one-shot operations (compact): compare times
				c.text = fmt.Sprintf("%.3f s", v.seconds)
			}
			if c.warned {
				c.text += " †"
			}
			if sp := v.spread; sp.N > 1 && v.opsPerSec > 0 {
				c.note = fmt.Sprintf("±%.1f%%", (sp.Max-sp.Min)/2/v.opsPerSec*100)
			}
			if hasBase && !c.failed && !c.warned {
				if v.ops <= 1 && v.seconds > 0 {
					c.ratio = base.seconds / v.seconds
				} else if v.ops > 1 && base.opsPerSec > 0 {
					c.ratio = v.opsPerSec / base.opsPerSec
				}
			}
			row = append(row, c)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// ratioCell is the cell of value v, with its ratio to base when both are
// positive.
func ratioCell(v, base int64) cell {
	c := cell{text: human(v)}
	if v > 0 && base > 0 {
		c.ratio = float64(v) / float64(base)
	}
	return c
}

// missing is the cell of a value an engine did not produce.
func missing(failed bool) cell {
	if failed {
		return cell{text: "failed", failed: true}
	}
	return cell{text: "—"}
}

// resourceTable compares a per-pass measure (peak RSS, DB size); note, when
// not nil, adds small print to each value.
func resourceTable(run *runner.Run, title string, get func(*runner.PassResult) int64, note func(*runner.PassResult) string) table {
	s := run.Suite
	t := table{title: title + " (ratio to " + s.Baseline + ")", header: []string{"pass"}}
	for _, e := range s.Engines {
		t.header = append(t.header, e.Name)
	}
	for _, p := range s.Passes {
		row := []cell{{text: p.Name}}
		var base int64
		if b := run.Result(p.Name, s.Baseline); b != nil && b.Sampler != nil && !b.Failed() {
			base = get(b)
		}
		any := false
		for _, e := range s.Engines {
			pr := run.Result(p.Name, e.Name)
			if pr == nil || pr.Sampler == nil || pr.Failed() {
				row = append(row, missing(pr != nil && pr.Failed()))
				continue
			}
			v := get(pr)
			c := ratioCell(v, base)
			if note != nil {
				c.note = note(pr)
			}
			any = any || v > 0
			row = append(row, c)
		}
		if any {
			t.rows = append(t.rows, row)
		}
	}
	return t
}

// statusTable lists every process with its status, times and engine
// version (each round of a repeated suite); a failed process's row is
// greyed.
func statusTable(run *runner.Run) table {
	t := table{title: "Processes", header: []string{"pass", "engine", "status", "wall", "user", "sys", "peak RSS", "page cache", "engine version"}}
	for _, pr := range processes(run) {
		bad := pr.Failed()
		engine := pr.Engine
		if pr.Round > 0 && run.Suite.Repeat > 1 {
			engine += fmt.Sprintf(" (round %d)", pr.Round)
		}
		row := []cell{{text: pr.Pass}, {text: engine}, {text: pr.Status}}
		if pr.Sampler != nil {
			row = append(row, cell{text: dur(pr.Sampler.Wall)}, cell{text: dur(pr.Sampler.User)}, cell{text: dur(pr.Sampler.Sys)},
				cell{text: human(pr.Sampler.PeakRSSBytes)}, cell{text: orDash(pr.Sampler.PageCacheMethod)})
		} else {
			row = append(row, cell{text: "—"}, cell{text: "—"}, cell{text: "—"}, cell{text: "—"}, cell{text: "—"})
		}
		row = append(row, cell{text: orDash(pr.Version)})
		for i := range row {
			row[i].failed = bad
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// processes lists every process that ran: the rounds of a repeated suite,
// else the results.
func processes(run *runner.Run) []*runner.PassResult {
	var out []*runner.PassResult
	for _, pr := range run.Results {
		if len(pr.Rounds) > 0 {
			out = append(out, pr.Rounds...)
		} else {
			out = append(out, pr)
		}
	}
	return out
}

// versionsTable names the build of every engine's binary and the engine
// versions its logs printed, then benchsuite's own build.
func versionsTable(run *runner.Run) table {
	t := table{title: "Versions", header: []string{"engine", "binary", "build", "engine version (log header)"}}
	for _, e := range run.Suite.Engines {
		path := e.Binary
		if path == "" {
			for _, pr := range run.Results {
				if pr.Engine == e.Name && len(pr.Command) > 0 && strings.HasSuffix(pr.Command[0], "db_bench") {
					path = pr.Command[0]
					break
				}
			}
		}
		if abs, err := filepath.Abs(path); err == nil && path != "" {
			path = abs
		}
		build := "—"
		if b, ok := run.Binaries[path]; ok {
			build = orDash(b.String())
		}
		var versions []string
		for _, pr := range run.Results {
			if pr.Engine == e.Name && pr.Version != "" && !contains(versions, pr.Version) {
				versions = append(versions, pr.Version)
			}
		}
		t.rows = append(t.rows, []cell{{text: e.Name}, {text: orDash(path)}, {text: build}, {text: orDash(strings.Join(versions, ", "))}})
	}
	t.rows = append(t.rows, []cell{{text: "(benchsuite)"}, {text: run.Benchsuite.Path}, {text: run.Benchsuite.String()}, {text: "—"}})
	return t
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// latKey is one latency row: a benchmark occurrence and an op type.
type latKey struct{ bench, op string }

// latencyData gathers latency per benchmark occurrence and op type per
// engine of one pass, from --report_json records or else the log's text
// histograms; failed passes give none.
func latencyData(run *runner.Run, pass string) (order []latKey, vals map[latKey]map[string]benchValue) {
	vals = map[latKey]map[string]benchValue{}
	add := func(engine, bench string, lat map[string]jsonrecord.Latency, warnings []string) {
		ops := make([]string, 0, len(lat))
		for op := range lat {
			ops = append(ops, op)
		}
		sort.Strings(ops)
		for _, op := range ops {
			k := latKey{bench, op}
			if vals[k] == nil {
				vals[k] = map[string]benchValue{}
				order = append(order, k)
			}
			vals[k][engine] = benchValue{latency: map[string]jsonrecord.Latency{op: lat[op]}, warnings: warnings}
		}
	}
	for _, e := range run.Suite.Engines {
		pr := run.Result(pass, e.Name)
		if pr == nil || pr.Failed() {
			continue
		}
		lineOrder, lines := passValues(pr)
		if len(pr.Records) == 0 {
			for _, n := range lineOrder {
				add(e.Name, n, lines[n].latency, lines[n].warnings)
			}
			continue
		}
		var names []string
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
			add(e.Name, occ[i], r.Latency, lines[occ[i]].warnings)
			i++
		}
	}
	// Rows follow the order the benchmarks ran in, whichever engine
	// reported them first.
	pos := map[string]int{}
	for _, e := range run.Suite.Engines {
		o, _ := passValues(run.Result(pass, e.Name))
		for _, n := range o {
			if _, ok := pos[n]; !ok {
				pos[n] = len(pos)
			}
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return pos[order[i].bench] < pos[order[j].bench] })
	return order, vals
}

// latencyTable shows p50/p99/p99.9 (µs) when the passes ran with
// --histogram.
func latencyTable(run *runner.Run, pass string) table {
	t := table{title: "Pass " + pass + ": latency percentiles (µs, p50 / p99 / p99.9)", header: []string{"benchmark", "op"}}
	order, vals := latencyData(run, pass)
	for _, e := range run.Suite.Engines {
		t.header = append(t.header, e.Name)
	}
	for _, k := range order {
		row := []cell{{text: k.bench}, {text: k.op}}
		for _, e := range run.Suite.Engines {
			v, ok := vals[k][e.Name]
			if !ok {
				row = append(row, missing(failed(run, pass, e.Name)))
				continue
			}
			l := v.latency[k.op]
			c := cell{text: fmt.Sprintf("%.1f / %.1f / %.1f", l.P50, l.P99, l.P999), warned: len(v.warnings) > 0}
			if c.warned {
				c.text += " †"
			}
			row = append(row, c)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// memtableTable compares memtablerep_bench us/op.
func memtableTable(run *runner.Run, pass string) table {
	t := table{title: "Pass " + pass + ": memtablerep_bench (µs/op; ratio to " + run.Suite.Baseline + ")", header: []string{"benchmark"}, notes: passNotes(run, pass)}
	per := map[string]map[string]float64{}
	var order []string
	for _, e := range run.Suite.Engines {
		t.header = append(t.header, e.Name)
		pr := run.Result(pass, e.Name)
		if pr == nil || pr.Failed() {
			continue
		}
		per[e.Name] = map[string]float64{}
		for _, m := range pr.Mem {
			v := m.WriteMicrosOp
			if v == 0 {
				v = m.ReadMicrosOp
			}
			if !contains(order, m.Benchmark) {
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
				row = append(row, missing(failed(run, pass, e.Name)))
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

// winnersTable names, per benchmark of every db_bench pass, the fastest
// engine among those that ran it as asked and did not fail, and its margin
// over the next one.
func winnersTable(run *runner.Run) table {
	t := table{title: "Fastest engine per benchmark", header: []string{"pass", "benchmark", "fastest", "margin", "compared"}}
	for _, p := range run.Suite.Passes {
		if p.Tool != "db_bench" {
			continue
		}
		type entry struct {
			engine string
			speed  float64 // ops/s, or 1/seconds for one-shot operations
		}
		var order []string
		per := map[string][]entry{}
		for _, e := range run.Suite.Engines {
			if failed(run, p.Name, e.Name) {
				continue
			}
			o, vals := passValues(run.Result(p.Name, e.Name))
			for _, n := range o {
				v := vals[n]
				if len(v.warnings) > 0 {
					continue
				}
				speed := v.opsPerSec
				if v.ops <= 1 && v.seconds > 0 {
					speed = 1 / v.seconds
				}
				if _, ok := per[n]; !ok {
					order = append(order, n)
				}
				per[n] = append(per[n], entry{e.Name, speed})
			}
		}
		for _, n := range order {
			es := per[n]
			sort.SliceStable(es, func(i, j int) bool { return es[i].speed > es[j].speed })
			margin := "only one"
			if len(es) > 1 && es[1].speed > 0 {
				margin = fmt.Sprintf("%.2fx %s", es[0].speed/es[1].speed, es[1].engine)
			}
			t.rows = append(t.rows, []cell{{text: p.Name}, {text: n}, {text: es[0].engine}, {text: margin}, {text: fmt.Sprint(len(es))}})
		}
	}
	return t
}

func dur(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }
