package report

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/godbbench/godbbench/tools/runner"
)

// Summary is the machine-readable record of a run (summary.json), which the
// history index reads.
type Summary struct {
	ID         string                        `json:"id"`
	Suite      string                        `json:"suite"`
	Start      time.Time                     `json:"start"`
	End        time.Time                     `json:"end"`
	Baseline   string                        `json:"baseline"`
	Engines    []string                      `json:"engines"`
	Statuses   map[string]string             `json:"statuses"` // "pass/engine" -> status
	Mismatches []string                      `json:"checksum_mismatches,omitempty"`
	OpsPerSec  map[string]map[string]float64 `json:"ops_per_sec"` // "pass/benchmark" -> engine -> ops/s
}

// Write renders summary.md, index.html and summary.json into run.Dir and
// refreshes the history index in the suite's output folder.
func Write(run *runner.Run) error {
	tables := buildTables(run)
	if err := writeFile(filepath.Join(run.Dir, "summary.md"), func(w io.Writer) error { return markdown(w, run, tables) }); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(run.Dir, "index.html"), func(w io.Writer) error { return page(w, run, tables) }); err != nil {
		return err
	}
	if _, err := writeProfiles(run); err != nil {
		return err
	}
	sum := summarize(run)
	b, _ := json.MarshalIndent(sum, "", "  ")
	if err := os.WriteFile(filepath.Join(run.Dir, "summary.json"), b, 0o644); err != nil {
		return err
	}
	return WriteHistory(run.Suite.Output)
}

func writeFile(path string, fn func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func buildTables(run *runner.Run) []table {
	var ts []table
	for _, p := range run.Suite.Passes {
		if p.Tool == "memtablerep_bench" {
			ts = append(ts, memtableTable(run, p.Name))
			continue
		}
		ts = append(ts, opsTable(run, p.Name))
		if lt := latencyTable(run, p.Name); len(lt.rows) > 0 {
			ts = append(ts, lt)
		}
	}
	ts = append(ts,
		resourceTable(run, "Peak RSS", func(p *runner.PassResult) int64 { return p.Sampler.PeakRSSBytes }),
		resourceTable(run, "DB size after the pass (allocated)", func(p *runner.PassResult) int64 { return p.DBAllocated }),
		statusTable(run))
	return ts
}

func summarize(run *runner.Run) Summary {
	s := Summary{ID: run.ID, Suite: run.Suite.Name, Start: run.Start, End: run.End, Baseline: run.Suite.Baseline,
		Statuses: map[string]string{}, Mismatches: run.Mismatches, OpsPerSec: map[string]map[string]float64{}}
	for _, e := range run.Suite.Engines {
		s.Engines = append(s.Engines, e.Name)
	}
	for _, pr := range run.Results {
		s.Statuses[pr.Pass+"/"+pr.Engine] = pr.Status
		order, vals := passValues(pr)
		for _, n := range order {
			k := pr.Pass + "/" + n
			if s.OpsPerSec[k] == nil {
				s.OpsPerSec[k] = map[string]float64{}
			}
			s.OpsPerSec[k][pr.Engine] = vals[n].opsPerSec
		}
	}
	return s
}

func ratioClass(c cell) string {
	if c.ratio == 0 || (c.ratio > 0.98 && c.ratio < 1.02) {
		return "same"
	}
	if (c.ratio > 1) == c.better {
		return "better"
	}
	return "worse"
}

func markdown(w io.Writer, run *runner.Run, tables []table) error {
	fmt.Fprintf(w, "# %s\n\n", run.Suite.Name)
	fmt.Fprintf(w, "Run %s, %s to %s. Host: %d × %s, %s RAM, kernel %s. Baseline: %s.\n\n",
		run.ID, run.Start.UTC().Format(time.RFC3339), run.End.UTC().Format(time.RFC3339),
		run.Host.Cores, run.Host.CPU, human(run.Host.MemTotal), run.Host.Kernel, run.Suite.Baseline)
	if len(run.Mismatches) > 0 {
		fmt.Fprintf(w, "**Checksum mismatches:**\n\n")
		for _, m := range run.Mismatches {
			fmt.Fprintf(w, "- %s\n", m)
		}
		fmt.Fprintln(w)
	}
	for _, t := range tables {
		fmt.Fprintf(w, "## %s\n\n|", t.title)
		for _, h := range t.header {
			fmt.Fprintf(w, " %s |", h)
		}
		fmt.Fprintf(w, "\n|")
		for range t.header {
			fmt.Fprintf(w, "---|")
		}
		fmt.Fprintln(w)
		for _, r := range t.rows {
			fmt.Fprintf(w, "|")
			for _, c := range r {
				txt := c.text
				if c.ratio > 0 {
					txt += fmt.Sprintf(" (%.2fx)", c.ratio)
					if ratioClass(c) == "better" {
						txt = "**" + txt + "**"
					}
				}
				fmt.Fprintf(w, " %s |", txt)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Commands and raw logs: raw/. Bold ratios are better than the baseline.\n")
	return nil
}

const css = `body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}.better{background:#d9f2d9}.worse{background:#f8d7d7}
.ratio{color:#555;font-size:90%}.mismatch{color:#b00;font-weight:bold}svg{max-width:100%;height:auto}
code{background:#f4f4f4;padding:1px 3px}`

func page(w io.Writer, run *runner.Run, tables []table) error {
	e := html.EscapeString
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title><style>%s</style></head><body>\n", e(run.Suite.Name), css)
	fmt.Fprintf(w, "<h1>%s</h1>\n<p>Run %s, %s to %s. Host: %d × %s, %s RAM, kernel %s. Baseline: <b>%s</b>. <a href=\"../index.html\">History</a></p>\n",
		e(run.Suite.Name), e(run.ID), run.Start.UTC().Format(time.RFC3339), run.End.UTC().Format(time.RFC3339),
		run.Host.Cores, e(run.Host.CPU), human(run.Host.MemTotal), e(run.Host.Kernel), e(run.Suite.Baseline))
	for _, m := range run.Mismatches {
		fmt.Fprintf(w, "<p class=\"mismatch\">Checksum mismatch: %s</p>\n", e(m))
	}
	for _, t := range tables {
		fmt.Fprintf(w, "<h2>%s</h2>\n<table><tr>", e(t.title))
		for _, h := range t.header {
			fmt.Fprintf(w, "<th>%s</th>", e(h))
		}
		fmt.Fprintf(w, "</tr>\n")
		for _, r := range t.rows {
			fmt.Fprintf(w, "<tr>")
			for _, c := range r {
				if c.ratio > 0 {
					fmt.Fprintf(w, "<td class=\"%s\">%s <span class=\"ratio\">(%.2fx)</span></td>", ratioClass(c), e(c.text), c.ratio)
				} else {
					fmt.Fprintf(w, "<td>%s</td>", e(c.text))
				}
			}
			fmt.Fprintf(w, "</tr>\n")
		}
		fmt.Fprintf(w, "</table>\n")
	}
	charts, err := buildCharts(run)
	if err != nil {
		return err
	}
	for _, c := range charts {
		fmt.Fprintf(w, "<h2>%s</h2>\n<div class=\"chart\">%s</div>\n", e(c.title), c.svg)
	}
	fmt.Fprintf(w, "<h2>Commands</h2>\n<ul>\n")
	for _, pr := range run.Results {
		if len(pr.Command) > 0 {
			fmt.Fprintf(w, "<li><code>%s</code> — <a href=\"raw/%s\">log</a></li>\n", e(strings.Join(pr.Command, " ")), e(filepath.Base(pr.LogFile)))
		}
	}
	fmt.Fprintf(w, "</ul>\n</body></html>\n")
	return nil
}

type chart struct{ title, svg string }

// buildCharts draws ops/s per pass, peak RSS, DB size and RAM over time.
func buildCharts(run *runner.Run) ([]chart, error) {
	var out []chart
	s := run.Suite
	add := func(title, svg string, err error) error {
		if err != nil {
			return err
		}
		if svg != "" {
			out = append(out, chart{title, svg})
		}
		return nil
	}
	for _, p := range s.Passes {
		if p.Tool != "db_bench" {
			continue
		}
		// Speed relative to the baseline reads at a glance whatever the
		// scale of each benchmark's ops/s (compact is compared by time).
		t := opsTable(run, p.Name)
		var cats []string
		for _, r := range t.rows {
			cats = append(cats, r[0].text)
		}
		var ss []series
		for i, e := range s.Engines {
			sr := series{name: e.Name}
			for _, r := range t.rows {
				sr.values = append(sr.values, r[i+1].ratio)
			}
			ss = append(ss, sr)
		}
		svg, err := barChart("pass "+p.Name+": speed relative to "+s.Baseline+" (higher is better)", "× "+s.Baseline, cats, ss)
		if err := add("Speed relative to "+s.Baseline+": "+p.Name, svg, err); err != nil {
			return nil, err
		}
	}
	var passes []string
	for _, p := range s.Passes {
		passes = append(passes, p.Name)
	}
	for _, m := range []struct {
		title string
		get   func(*runner.PassResult) int64
	}{
		{"Peak RSS (MiB)", func(p *runner.PassResult) int64 { return p.Sampler.PeakRSSBytes }},
		{"DB size, allocated (MiB)", func(p *runner.PassResult) int64 { return p.DBAllocated }},
	} {
		var ss []series
		for _, e := range s.Engines {
			sr := series{name: e.Name}
			for _, p := range s.Passes {
				v := 0.0
				if pr := run.Result(p.Name, e.Name); pr != nil && pr.Sampler != nil {
					v = mib(m.get(pr))
				}
				sr.values = append(sr.values, v)
			}
			ss = append(ss, sr)
		}
		svg, err := barChart(m.title, "MiB", passes, ss)
		if err := add(m.title, svg, err); err != nil {
			return nil, err
		}
	}
	for _, p := range s.Passes {
		lt := latencyTable(run, p.Name)
		if len(lt.rows) == 0 {
			continue
		}
		var cats []string
		for _, r := range lt.rows {
			cats = append(cats, r[0].text+" "+r[1].text)
		}
		var ss []series
		for i, e := range s.Engines {
			sr := series{name: e.Name}
			for _, r := range lt.rows {
				var p50, p99, p999 float64
				fmt.Sscanf(r[i+2].text, "%f / %f / %f", &p50, &p99, &p999)
				sr.values = append(sr.values, p99)
			}
			ss = append(ss, sr)
		}
		svg, err := barChart("pass "+p.Name+": p99 latency (µs, lower is better)", "µs", cats, ss)
		if err := add("p99 latency: "+p.Name, svg, err); err != nil {
			return nil, err
		}
	}
	for _, pr := range run.Results {
		if pr.Sampler == nil || len(pr.Sampler.Samples) == 0 {
			continue
		}
		svg, err := ramChart(pr)
		if err := add("RAM over time: "+pr.Pass+" on "+pr.Engine, svg, err); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ramChart plots rss, anonymous (rss - shared), page cache and their sum,
// with a band per benchmark stage (from the result lines' start times).
func ramChart(pr *runner.PassResult) (string, error) {
	res := pr.Sampler
	page := float64(res.PageSize) / (1 << 20)
	xs := make([]float64, len(res.Samples))
	names := []string{"rss", "anony", "pagecache", "anony+pc"}
	lines := make([]series, len(names))
	for i, n := range names {
		lines[i].name = n
	}
	for i, smp := range res.Samples {
		xs[i] = smp.T.Sub(res.Start).Seconds()
		anon := float64(smp.Resident-min(smp.Shared, smp.Resident)) * page
		lines[0].values = append(lines[0].values, float64(smp.Resident)*page)
		lines[1].values = append(lines[1].values, anon)
		lines[2].values = append(lines[2].values, float64(smp.PageCache)*page)
		lines[3].values = append(lines[3].values, anon+float64(smp.PageCache)*page)
	}
	var bands []band
	// Stage bands come from the result lines' start times; a binary that
	// prints none (C++ db_bench without ToplingDB's patch) gets bands from
	// the running sum of each stage's seconds instead.
	timed := false
	for _, l := range pr.Lines {
		timed = timed || !l.Start.IsZero()
	}
	cum := 0.0
	for _, l := range pr.Lines {
		st := cum
		cum += l.Seconds
		if timed {
			if l.Start.IsZero() {
				continue
			}
			st = l.Start.Sub(res.Start).Seconds()
		}
		if n := len(bands); n > 0 && strings.TrimRight(bands[n-1].label, "×0123456789") == l.Name {
			bands[n-1].end = st + l.Seconds
			bands[n-1].label = l.Name + "×"
			continue
		}
		bands = append(bands, band{label: l.Name, start: st, end: st + l.Seconds})
	}
	sort.Slice(bands, func(i, j int) bool { return bands[i].start < bands[j].start })
	return timeChart(pr.Pass+" on "+pr.Engine, "MiB", lines, xs, bands)
}

// WriteHistory rebuilds <output>/index.html listing every run found there.
func WriteHistory(output string) error {
	ents, err := os.ReadDir(output)
	if err != nil {
		return err
	}
	var sums []Summary
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(output, e.Name(), "summary.json"))
		if err != nil {
			continue
		}
		var s Summary
		if json.Unmarshal(b, &s) == nil {
			sums = append(sums, s)
		}
	}
	sort.Slice(sums, func(i, j int) bool { return sums[i].Start.After(sums[j].Start) })
	return writeFile(filepath.Join(output, "index.html"), func(w io.Writer) error {
		e := html.EscapeString
		fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>godbbench suite history</title><style>%s</style></head><body>\n<h1>Suite runs</h1>\n<table><tr><th>run</th><th>suite</th><th>start (UTC)</th><th>engines</th><th>failed processes</th><th>checksums</th></tr>\n", css)
		for _, s := range sums {
			failed := 0
			for _, st := range s.Statuses {
				if st != "ok" && st != "skipped" {
					failed++
				}
			}
			ck := "ok"
			if len(s.Mismatches) > 0 {
				ck = fmt.Sprintf("%d mismatches", len(s.Mismatches))
			}
			fmt.Fprintf(w, "<tr><td><a href=\"%s/index.html\">%s</a></td><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%s</td></tr>\n",
				e(s.ID), e(s.ID), e(s.Suite), s.Start.UTC().Format("2006-01-02 15:04:05"), e(strings.Join(s.Engines, ", ")), failed, ck)
		}
		fmt.Fprintf(w, "</table>\n</body></html>\n")
		return nil
	})
}
