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
)

// WriteHistory rebuilds <output>/index.html from every run's summary.json
// found there: a table of runs, newest first, then per suite a trend chart
// per benchmark (ops/s per engine over the runs, oldest to newest, each run
// labelled by its date and the godbbench commit it ran).
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
	trends, err := trendCharts(sums)
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(output, "index.html"), func(w io.Writer) error {
		e := html.EscapeString
		fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>godbbench suite history</title><style>%s</style></head><body>\n<h1>Suite runs</h1>\n", css)
		fmt.Fprintf(w, "<table><tr><th>run</th><th>suite</th><th>start (UTC)</th><th>commit</th><th>engines</th><th>failed processes</th><th>checksums</th></tr>\n")
		for _, s := range sums {
			var failed []string
			for k, st := range s.Statuses {
				if st != "ok" && st != "skipped" {
					failed = append(failed, k)
				}
			}
			sort.Strings(failed)
			fl := "0"
			if len(failed) > 0 {
				fl = fmt.Sprintf("%d: %s", len(failed), strings.Join(failed, ", "))
			}
			ck := "ok"
			if len(s.Mismatches) > 0 {
				ck = fmt.Sprintf("%d mismatches", len(s.Mismatches))
			}
			cls := ""
			if len(failed) > 0 {
				cls = ` class="failed"`
			}
			fmt.Fprintf(w, "<tr><td><a href=\"%s/index.html\">%s</a></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td%s>%s</td><td>%s</td></tr>\n",
				e(s.ID), e(s.ID), e(s.Suite), s.Start.UTC().Format("2006-01-02 15:04:05"), e(orDash(shortRev(s.Revision))),
				e(strings.Join(s.Engines, ", ")), cls, e(fl), ck)
		}
		fmt.Fprintf(w, "</table>\n")
		for _, c := range trends {
			htmlChart(w, c)
		}
		fmt.Fprintf(w, "</body></html>\n")
		return nil
	})
}

func shortRev(r string) string {
	if len(r) > 12 {
		return r[:12]
	}
	return r
}

// trendCharts draws, per suite with at least two runs, ops/s per engine
// over the runs for every benchmark. sums is newest first.
func trendCharts(sums []Summary) ([]chart, error) {
	bySuite := map[string][]Summary{}
	var suites []string
	for i := len(sums) - 1; i >= 0; i-- { // oldest first
		s := sums[i]
		if _, ok := bySuite[s.Suite]; !ok {
			suites = append(suites, s.Suite)
		}
		bySuite[s.Suite] = append(bySuite[s.Suite], s)
	}
	var out []chart
	for _, name := range suites {
		runs := bySuite[name]
		if len(runs) < 2 {
			continue
		}
		var labels, engines, keys []string
		for _, r := range runs {
			labels = append(labels, r.Start.UTC().Format("01-02 15:04")+" "+shortRev(r.Revision)[:min(7, len(r.Revision))])
			for _, e := range r.Engines {
				if !contains(engines, e) {
					engines = append(engines, e)
				}
			}
			for k := range r.OpsPerSec {
				if !contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
		sort.Strings(keys)
		var legend []legendItem
		for i, e := range engines {
			legend = append(legend, legendItem{color: i, label: e})
		}
		for _, k := range keys {
			var ss []series
			for i, e := range engines {
				sr := series{name: e, color: i}
				for _, r := range runs {
					sr.values = append(sr.values, r.OpsPerSec[k][e])
				}
				ss = append(ss, sr)
			}
			svg, err := trendChart(name+": "+k+" (ops/s, higher is better)", "ops/s", labels, ss)
			if err != nil {
				return nil, err
			}
			out = append(out, chart{title: "Trend: " + name + ", " + k, svg: svg, legend: legend,
				caption: "One point per run, oldest left; labels are the run's start (UTC) and the godbbench commit. A gap: the pass failed or did not run."})
		}
	}
	return out, nil
}
