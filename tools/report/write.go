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

// Write renders summary.md, index.html, summary.json and benchstat.txt into
// run.Dir and
// refreshes the history index in the suite's output folder.
func Write(run *runner.Run) error {
	secs, err := buildSections(run)
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(run.Dir, "summary.md"), func(w io.Writer) error { return markdown(w, run, secs) }); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(run.Dir, "index.html"), func(w io.Writer) error { return page(w, run, secs) }); err != nil {
		return err
	}
	if _, err := writeProfiles(run); err != nil {
		return err
	}
	if err := benchstatFile(run); err != nil {
		return err
	}
	b, err := json.MarshalIndent(summarize(run), "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(run.Dir, "summary.json"), append(b, '\n'), 0o644); err != nil {
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

// failures lists the failed processes in run order.
func failures(run *runner.Run) []*runner.PassResult {
	var out []*runner.PassResult
	for _, pr := range run.Results {
		if pr.Failed() {
			out = append(out, pr)
		}
	}
	return out
}

func ratioClass(c cell) string {
	switch {
	case c.failed:
		return "failed"
	case c.warned:
		return "warned"
	case c.ratio == 0 || (c.ratio > 0.98 && c.ratio < 1.02):
		return "same"
	case (c.ratio > 1) == c.better:
		return "better"
	}
	return "worse"
}

// hostLine describes the machine.
func hostLine(h runner.Host) string {
	return fmt.Sprintf("%d × %s, %s RAM, kernel %s, DB directory on %s", h.Cores, h.CPU, human(h.MemTotal), h.Kernel, orDash(h.Filesystem))
}

func markdown(w io.Writer, run *runner.Run, secs []section) error {
	fmt.Fprintf(w, "# %s\n\n", run.Suite.Name)
	fmt.Fprintf(w, "Run %s, %s to %s. Baseline: %s.\n\nMachine: %s.\n\nbenchsuite: %s.\n\n",
		run.ID, run.Start.UTC().Format(time.RFC3339), run.End.UTC().Format(time.RFC3339), run.Suite.Baseline,
		hostLine(run.Host), run.Benchsuite.String())
	if fs := failures(run); len(fs) > 0 {
		fmt.Fprintf(w, "> **FAILED: %d process(es).** Their numbers are not compared.\n>\n", len(fs))
		for _, pr := range fs {
			fmt.Fprintf(w, "> - pass %s on %s: %s: %s (log raw/%s)\n", pr.Pass, pr.Engine, pr.Status, pr.Failure, filepath.Base(pr.LogFile))
		}
		fmt.Fprintln(w)
	}
	if len(run.Mismatches) > 0 {
		fmt.Fprintf(w, "**Checksum mismatches:**\n\n")
		for _, m := range run.Mismatches {
			fmt.Fprintf(w, "- %s\n", m)
		}
		fmt.Fprintln(w)
	}
	for _, sec := range secs {
		for _, t := range sec.tables {
			markdownTable(w, t)
		}
	}
	fmt.Fprintf(w, "Commands and raw logs: raw/. Bold ratios are better than the baseline. "+
		"\"failed\": the pass failed, its numbers are not compared. †: the engine warned that it ran the benchmark differently; not compared.\n")
	return nil
}

func markdownTable(w io.Writer, t table) {
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
			if c.note != "" {
				txt += " <sub>" + c.note + "</sub>"
			}
			if c.failed && c.text != "failed" {
				txt = "~~" + txt + "~~"
			}
			fmt.Fprintf(w, " %s |", strings.ReplaceAll(txt, "|", "\\|"))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	for _, n := range t.notes {
		if n.class == "failed" {
			fmt.Fprintf(w, "- **%s**\n", n.text)
		} else {
			fmt.Fprintf(w, "- %s\n", n.text)
		}
	}
	if len(t.notes) > 0 {
		fmt.Fprintln(w)
	}
}

const css = `body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}.better{background:#d9f2d9}.worse{background:#f8d7d7}
.failed{background:#eee;color:#888}.warned{background:#fff4d6}
.ratio{color:#555;font-size:90%}.note{color:#666;font-size:80%}.mismatch{color:#b00;font-weight:bold}
.banner{border:2px solid #b00;background:#fde8e8;padding:.5em 1em;margin:1em 0}.banner b{color:#b00}
ul.notes li.failed{color:#b00;background:none}ul.notes li.warning{color:#7a5a00}
svg{max-width:100%;height:auto}code{background:#f4f4f4;padding:1px 3px}
.legend{font-size:90%;margin:0 0 .3em}.legend span{margin-right:1.2em;white-space:nowrap}
.swatch{display:inline-block;width:22px;height:0;border-top:4px solid;vertical-align:middle;margin-right:4px}
.swatch.dashed{border-top-style:dashed}.caption{color:#555;font-size:85%;margin:0 0 1.5em}`

func page(w io.Writer, run *runner.Run, secs []section) error {
	e := html.EscapeString
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title><style>%s</style></head><body>\n", e(run.Suite.Name), css)
	fmt.Fprintf(w, "<h1>%s</h1>\n<p>Run %s, %s to %s. Baseline: <b>%s</b>. <a href=\"../index.html\">History</a></p>\n<p>Machine: %s.<br>benchsuite: %s.</p>\n",
		e(run.Suite.Name), e(run.ID), run.Start.UTC().Format(time.RFC3339), run.End.UTC().Format(time.RFC3339), e(run.Suite.Baseline),
		e(hostLine(run.Host)), e(run.Benchsuite.String()))
	if fs := failures(run); len(fs) > 0 {
		fmt.Fprintf(w, "<div class=\"banner\"><b>FAILED: %d process(es).</b> Their numbers are greyed and not compared.<ul>\n", len(fs))
		for _, pr := range fs {
			fmt.Fprintf(w, "<li>pass <b>%s</b> on <b>%s</b>: %s: <code>%s</code> (<a href=\"raw/%s\">log</a>)</li>\n",
				e(pr.Pass), e(pr.Engine), e(pr.Status), e(pr.Failure), e(filepath.Base(pr.LogFile)))
		}
		fmt.Fprintf(w, "</ul></div>\n")
	}
	for _, m := range run.Mismatches {
		fmt.Fprintf(w, "<p class=\"mismatch\">Checksum mismatch: %s</p>\n", e(m))
	}
	fmt.Fprintf(w, "<p class=\"caption\">Green: better than the baseline; red: worse. Grey: the pass failed, not compared. †, yellow: the engine warned that it ran the benchmark differently, not compared.</p>\n")
	for _, sec := range secs {
		fmt.Fprintf(w, "<h2>%s</h2>\n", e(sec.title))
		for _, t := range sec.tables {
			htmlTable(w, t)
		}
		for _, c := range sec.charts {
			htmlChart(w, c)
		}
		if len(sec.details) > 0 {
			fmt.Fprintf(w, "<details><summary>Memory of each process, all four series</summary>\n")
			for _, c := range sec.details {
				htmlChart(w, c)
			}
			fmt.Fprintf(w, "</details>\n")
		}
	}
	fmt.Fprintf(w, "<h2>Commands</h2>\n<ul>\n")
	for _, pr := range processes(run) {
		if len(pr.Command) > 0 {
			fmt.Fprintf(w, "<li><code>%s</code> — <a href=\"raw/%s\">log</a></li>\n", e(strings.Join(pr.Command, " ")), e(filepath.Base(pr.LogFile)))
		}
	}
	fmt.Fprintf(w, "</ul>\n</body></html>\n")
	return nil
}

func htmlTable(w io.Writer, t table) {
	e := html.EscapeString
	fmt.Fprintf(w, "<h3>%s</h3>\n<table><tr>", e(t.title))
	for _, h := range t.header {
		fmt.Fprintf(w, "<th>%s</th>", e(h))
	}
	fmt.Fprintf(w, "</tr>\n")
	for _, r := range t.rows {
		fmt.Fprintf(w, "<tr>")
		for _, c := range r {
			body := e(c.text)
			if c.ratio > 0 {
				body += fmt.Sprintf(" <span class=\"ratio\">(%.2fx)</span>", c.ratio)
			}
			if c.note != "" {
				body += " <span class=\"note\">" + e(c.note) + "</span>"
			}
			if cls := ratioClass(c); cls != "same" {
				fmt.Fprintf(w, "<td class=\"%s\">%s</td>", cls, body)
			} else {
				fmt.Fprintf(w, "<td>%s</td>", body)
			}
		}
		fmt.Fprintf(w, "</tr>\n")
	}
	fmt.Fprintf(w, "</table>\n")
	if len(t.notes) > 0 {
		fmt.Fprintf(w, "<ul class=\"notes\">\n")
		for _, n := range t.notes {
			fmt.Fprintf(w, "<li class=\"%s\">%s</li>\n", n.class, e(n.text))
		}
		fmt.Fprintf(w, "</ul>\n")
	}
}

func htmlChart(w io.Writer, c chart) {
	e := html.EscapeString
	fmt.Fprintf(w, "<h3>%s</h3>\n<div class=\"chart\">%s</div>\n<p class=\"legend\">", e(c.title), c.svg)
	for _, l := range c.legend {
		dashed := ""
		if l.dashed {
			dashed = " dashed"
		}
		fmt.Fprintf(w, "<span><i class=\"swatch%s\" style=\"border-color:%s\"></i>%s</span>", dashed, cssColor(engineColor(l.color)), e(l.label))
	}
	fmt.Fprintf(w, "</p>\n")
	if c.caption != "" {
		fmt.Fprintf(w, "<p class=\"caption\">%s</p>\n", e(c.caption))
	}
}

// Summary is the machine-readable record of a run (summary.json), which the
// history page reads. Keys "pass/engine" and "pass/benchmark" name a
// process and a benchmark occurrence ("readseq #2").
type Summary struct {
	ID             string                        `json:"id"`
	Suite          string                        `json:"suite"`
	Start          time.Time                     `json:"start"`
	End            time.Time                     `json:"end"`
	Baseline       string                        `json:"baseline"`
	Repeat         int                           `json:"repeat,omitempty"` // rounds; the numbers are medians when > 1
	Engines        []string                      `json:"engines"`
	Host           runner.Host                   `json:"host"`
	Benchsuite     runner.Build                  `json:"benchsuite"`
	Binaries       []runner.Build                `json:"binaries,omitempty"`
	Revision       string                        `json:"revision,omitempty"`        // VCS revision of our db_bench (else benchsuite)
	EngineVersions map[string][]string           `json:"engine_versions,omitempty"` // engine -> log header versions
	Statuses       map[string]string             `json:"statuses"`                  // "pass/engine" -> status
	Failures       map[string]string             `json:"failures,omitempty"`        // "pass/engine" -> reason
	Warnings       map[string][]string           `json:"warnings,omitempty"`        // "pass/engine" -> warnings, "benchmark: " prefixed when about one
	Mismatches     []string                      `json:"checksum_mismatches,omitempty"`
	OpsPerSec      map[string]map[string]float64 `json:"ops_per_sec"`              // "pass/benchmark" -> engine -> ops/s; failed passes and warned benchmarks left out
	PeakRSS        map[string]int64              `json:"peak_rss_bytes,omitempty"` // "pass/engine"; failed passes left out
	DBApparent     map[string]int64              `json:"db_apparent_bytes,omitempty"`
	DBAllocated    map[string]int64              `json:"db_allocated_bytes,omitempty"`
}

func summarize(run *runner.Run) Summary {
	s := Summary{ID: run.ID, Suite: run.Suite.Name, Start: run.Start, End: run.End, Baseline: run.Suite.Baseline, Repeat: run.Suite.Repeat,
		Host: run.Host, Benchsuite: run.Benchsuite, Revision: run.Benchsuite.Revision,
		Statuses: map[string]string{}, Failures: map[string]string{}, Warnings: map[string][]string{}, EngineVersions: map[string][]string{},
		Mismatches: run.Mismatches, OpsPerSec: map[string]map[string]float64{},
		PeakRSS: map[string]int64{}, DBApparent: map[string]int64{}, DBAllocated: map[string]int64{}}
	for _, e := range run.Suite.Engines {
		s.Engines = append(s.Engines, e.Name)
	}
	var paths []string
	for p := range run.Binaries {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		b := run.Binaries[p]
		s.Binaries = append(s.Binaries, b)
		if strings.HasSuffix(p, "/db_bench") && b.Revision != "" {
			s.Revision = b.Revision
		}
	}
	for _, pr := range run.Results {
		k := pr.Pass + "/" + pr.Engine
		s.Statuses[k] = pr.Status
		if pr.Version != "" && !contains(s.EngineVersions[pr.Engine], pr.Version) {
			s.EngineVersions[pr.Engine] = append(s.EngineVersions[pr.Engine], pr.Version)
		}
		s.Warnings[k] = append(s.Warnings[k], pr.Warnings...)
		order, vals := passValues(pr)
		for _, n := range order {
			for _, w := range vals[n].warnings {
				s.Warnings[k] = append(s.Warnings[k], n+": "+w)
			}
		}
		if len(s.Warnings[k]) == 0 {
			delete(s.Warnings, k)
		}
		if pr.Failed() {
			s.Failures[k] = pr.Failure
			continue
		}
		if pr.Sampler != nil {
			s.PeakRSS[k] = pr.Sampler.PeakRSSBytes
		}
		if pr.DBApparent > 0 || pr.DBAllocated > 0 {
			s.DBApparent[k], s.DBAllocated[k] = pr.DBApparent, pr.DBAllocated
		}
		for _, n := range order {
			if len(vals[n].warnings) > 0 {
				continue // not the work asked for: not a point of a trend
			}
			bk := pr.Pass + "/" + n
			if s.OpsPerSec[bk] == nil {
				s.OpsPerSec[bk] = map[string]float64{}
			}
			s.OpsPerSec[bk][pr.Engine] = vals[n].opsPerSec
		}
	}
	return s
}
