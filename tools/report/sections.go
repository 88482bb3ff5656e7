package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/godbbench/godbbench/tools/runner"
	"github.com/godbbench/godbbench/tools/sampler"
)

// section is one heading of the report: its tables, then its charts, then
// charts folded away under a <details> element (HTML only).
type section struct {
	title   string
	tables  []table
	charts  []chart
	details []chart
}

type chart struct {
	title   string
	svg     string
	legend  []legendItem
	caption string
}

// legendItem is one entry of the legend printed under a chart.
type legendItem struct {
	color  int
	dashed bool
	label  string
}

// buildSections lays out the whole report.
func buildSections(run *runner.Run) ([]section, error) {
	var out []section
	if w := winnersTable(run); len(w.rows) > 0 {
		out = append(out, section{title: "At a glance", tables: []table{w}})
	}
	for _, p := range run.Suite.Passes {
		sec, err := passSection(run, p.Name, p.Tool)
		if err != nil {
			return nil, err
		}
		out = append(out, sec)
	}
	res, err := resourceSection(run)
	if err != nil {
		return nil, err
	}
	out = append(out, res, section{title: "Processes and versions", tables: []table{statusTable(run), versionsTable(run)}})
	return out, nil
}

// engineLegend is a legend of every engine's colour, marking those that
// failed pass (any pass when pass is "").
func engineLegend(run *runner.Run, pass string) []legendItem {
	var out []legendItem
	for i, e := range run.Suite.Engines {
		label := e.Name
		for _, pr := range run.Results {
			if pr.Engine == e.Name && (pass == "" || pr.Pass == pass) && pr.Failed() {
				label += " (failed: no bar)"
				break
			}
		}
		out = append(out, legendItem{color: i, label: label})
	}
	return out
}

func passSection(run *runner.Run, pass, tool string) (section, error) {
	sec := section{title: "Pass " + pass}
	s := run.Suite
	if tool == "memtablerep_bench" {
		sec.tables = append(sec.tables, memtableTable(run, pass))
	} else {
		ops := opsTable(run, pass)
		sec.tables = append(sec.tables, ops)
		var cats []string
		for _, r := range ops.rows {
			cats = append(cats, r[0].text)
		}
		var ss []series
		for i, e := range s.Engines {
			sr := series{name: e.Name, color: i}
			for _, r := range ops.rows {
				sr.values = append(sr.values, r[i+1].ratio)
			}
			ss = append(ss, sr)
		}
		svg, err := barChart("pass "+pass+": speed relative to "+s.Baseline+" (higher is better)", "× "+s.Baseline, cats, ss, 1)
		if err != nil {
			return sec, err
		}
		if svg != "" {
			sec.charts = append(sec.charts, chart{title: "Speed relative to " + s.Baseline + ": " + pass, svg: svg, legend: engineLegend(run, pass),
				caption: "Ops/s over the baseline's (time for one-shot operations such as compact); the dashed line is 1.0. No bar: the pass failed, or the engine ran the benchmark differently (†)."})
		}
		if rt := stageRSSTable(run, pass); len(rt.rows) > 0 {
			sec.tables = append(sec.tables, rt)
		}
		if lt := latencyTable(run, pass); len(lt.rows) > 0 {
			sec.tables = append(sec.tables, lt)
			lc, err := latencyCharts(run, pass)
			if err != nil {
				return sec, err
			}
			sec.charts = append(sec.charts, lc...)
		}
	}
	ram, err := ramOverlay(run, pass)
	if err != nil {
		return sec, err
	}
	if ram.svg != "" {
		sec.charts = append(sec.charts, ram)
	}
	for _, e := range s.Engines {
		pr := run.Result(pass, e.Name)
		if pr == nil || pr.Sampler == nil || len(pr.Sampler.Samples) == 0 {
			continue
		}
		c, err := ramDetail(pr)
		if err != nil {
			return sec, err
		}
		sec.details = append(sec.details, c)
	}
	return sec, nil
}

// latencyCharts draws p99 per benchmark, one chart per op type, so reads of
// a few µs and writes of milliseconds each get a readable axis.
func latencyCharts(run *runner.Run, pass string) ([]chart, error) {
	order, vals := latencyData(run, pass)
	var ops []string
	for _, k := range order {
		if !contains(ops, k.op) {
			ops = append(ops, k.op)
		}
	}
	var out []chart
	for _, op := range ops {
		var cats []string
		var keys []latKey
		for _, k := range order {
			if k.op == op {
				cats, keys = append(cats, k.bench), append(keys, k)
			}
		}
		var ss []series
		for i, e := range run.Suite.Engines {
			sr := series{name: e.Name, color: i}
			for _, k := range keys {
				v, ok := vals[k][e.Name]
				p99 := 0.0
				if ok && len(v.warnings) == 0 {
					p99 = v.latency[op].P99
				}
				sr.values = append(sr.values, p99)
			}
			ss = append(ss, sr)
		}
		svg, err := barChart("pass "+pass+": p99 latency per "+op+" (µs, lower is better)", "µs", cats, ss, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, chart{title: "p99 " + op + " latency: " + pass, svg: svg, legend: engineLegend(run, pass),
			caption: "One chart per operation type, each on its own scale. No bar: the pass failed, the engine printed no histogram, or it ran the benchmark differently (†)."})
	}
	return out, nil
}

// ramCaption explains the memory series.
func ramCaption(run *runner.Run) string {
	return fmt.Sprintf("Memory sampled every %v for the first %v of each process, then every %v. "+
		"RSS: resident set (/proc/PID/statm), anonymous and file-backed pages. "+
		"anon: RSS minus shared (file-backed) pages, roughly the heap. "+
		"page cache: cached pages of the files the process holds open (cachestat(2), else mincore(2)). "+
		"anon + page cache: what the engine costs the machine's memory. "+
		"Boxes under the axis: one lane per process, one box per benchmark.",
		sampler.EarlyInterval, sampler.EarlyPeriod, run.Suite.SampleInterval)
}

// ramOverlay draws every engine's memory over one time axis for a pass:
// RSS solid, anon + page cache dashed, in the engine's colour.
func ramOverlay(run *runner.Run, pass string) (chart, error) {
	var lines []timeLine
	var lanes [][]stage
	var laneColor []int
	var legend []legendItem
	for i, e := range run.Suite.Engines {
		pr := run.Result(pass, e.Name)
		if pr == nil || pr.Sampler == nil || len(pr.Sampler.Samples) == 0 {
			continue
		}
		xs, rss, _, _, total := memSeries(pr.Sampler)
		lines = append(lines, timeLine{color: i, xs: xs, ys: rss}, timeLine{color: i, dashed: true, xs: xs, ys: total})
		lanes, laneColor = append(lanes, stages(pr)), append(laneColor, i)
		label := e.Name
		if pr.Failed() {
			label += " (failed)"
		}
		legend = append(legend, legendItem{color: i, label: label + " RSS"}, legendItem{color: i, dashed: true, label: label + " anon + page cache"})
	}
	if len(lines) == 0 {
		return chart{}, nil
	}
	svg, err := timeChart("pass "+pass+": memory over time, all engines", "MiB", lines, lanes, laneColor)
	return chart{title: "RAM over time: " + pass, svg: svg, legend: legend, caption: ramCaption(run)}, err
}

// ramDetail draws one process's four memory series.
func ramDetail(pr *runner.PassResult) (chart, error) {
	xs, rss, anon, pc, total := memSeries(pr.Sampler)
	names := []string{"RSS", "anon", "page cache", "anon + page cache"}
	var lines []timeLine
	var legend []legendItem
	for i, ys := range [][]float64{rss, anon, pc, total} {
		lines = append(lines, timeLine{color: i, xs: xs, ys: ys})
		legend = append(legend, legendItem{color: i, label: names[i]})
	}
	svg, err := timeChart(pr.Pass+" on "+pr.Engine, "MiB", lines, [][]stage{stages(pr)}, []int{5})
	return chart{title: "RAM over time: " + pr.Pass + " on " + pr.Engine, svg: svg, legend: legend}, err
}

// memSeries converts samples to seconds since the start and MiB: RSS,
// anonymous (RSS minus shared), page cache, and anonymous plus page cache.
func memSeries(res *sampler.Result) (xs, rss, anon, pc, total []float64) {
	page := float64(res.PageSize) / (1 << 20)
	for _, smp := range res.Samples {
		a := float64(smp.Resident-min(smp.Shared, smp.Resident)) * page
		c := float64(smp.PageCache) * page
		xs = append(xs, smp.T.Sub(res.Start).Seconds())
		rss = append(rss, float64(smp.Resident)*page)
		anon, pc, total = append(anon, a), append(pc, c), append(total, a+c)
	}
	return
}

// stages places each benchmark of a process on its time axis
// (benchWindows). Repeats in a row merge into one stage ("readseq×").
func stages(pr *runner.PassResult) []stage {
	var out []stage
	for _, w := range benchWindows(pr) {
		if n := len(out); n > 0 && strings.TrimSuffix(out[n-1].label, "×") == w.label {
			out[n-1].end = w.end
			out[n-1].label = w.label + "×"
			continue
		}
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// resourceSection compares peak RSS and DB size across passes.
func resourceSection(run *runner.Run) (section, error) {
	sec := section{title: "Memory and disk"}
	rss := resourceTable(run, "Peak RSS", func(p *runner.PassResult) int64 { return p.Sampler.PeakRSSBytes }, nil)
	size := resourceTable(run, "DB size after the pass, apparent (du -sb), allocated (du -s -B1) in small print,",
		func(p *runner.PassResult) int64 { return p.DBApparent },
		func(p *runner.PassResult) string { return "alloc " + human(p.DBAllocated) })
	sec.tables = []table{rss, size}
	var passes []string
	for _, p := range run.Suite.Passes {
		passes = append(passes, p.Name)
	}
	for _, m := range []struct {
		title, caption string
		get            func(*runner.PassResult) int64
	}{
		{"Peak RSS (MiB)", "Peak resident set of each process (wait4's ru_maxrss). No bar: the pass failed or was skipped.", func(p *runner.PassResult) int64 { return p.Sampler.PeakRSSBytes }},
		{"DB size, apparent (MiB)", "Bytes of the DB's files after the pass (du -sb); preallocated but unwritten blocks are not counted. No bar: the pass failed or was skipped.", func(p *runner.PassResult) int64 { return p.DBApparent }},
	} {
		var ss []series
		for i, e := range run.Suite.Engines {
			sr := series{name: e.Name, color: i}
			for _, p := range run.Suite.Passes {
				v := 0.0
				if pr := run.Result(p.Name, e.Name); pr != nil && pr.Sampler != nil && !pr.Failed() {
					v = mib(m.get(pr))
				}
				sr.values = append(sr.values, v)
			}
			ss = append(ss, sr)
		}
		svg, err := barChart(m.title, "MiB", passes, ss, 0)
		if err != nil {
			return sec, err
		}
		sec.charts = append(sec.charts, chart{title: m.title, svg: svg, legend: engineLegend(run, ""), caption: m.caption})
	}
	return sec, nil
}
