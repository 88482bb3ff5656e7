package report

import (
	"github.com/godbbench/godbbench/tools/runner"
)

// Peak resident set per benchmark: the sampler's statm samples that fall
// inside each benchmark's run, so a pass that fills and then reads shows
// the read stage's memory apart from the fill's.

// benchWindows places each result line of a process on the sampler's time
// axis (seconds from its start), in the order of the lines, labelled with
// the benchmark's name. The windows come from the lines' start times; a
// binary that prints none (C++ db_bench without ToplingDB's patch) gets
// them from the running sum of each benchmark's seconds, and then a line
// without a start time in a process that prints them is left out.
func benchWindows(pr *runner.PassResult) []stage {
	if pr.Sampler == nil {
		return nil
	}
	timed := false
	for _, l := range pr.Lines {
		timed = timed || !l.Start.IsZero()
	}
	var out []stage
	cum := 0.0
	for _, l := range pr.Lines {
		st := cum
		cum += l.Seconds
		if timed {
			if l.Start.IsZero() {
				continue
			}
			st = l.Start.Sub(pr.Sampler.Start).Seconds()
		}
		out = append(out, stage{label: l.Name, start: st, end: st + l.Seconds})
	}
	return out
}

// benchPeaks maps each benchmark occurrence of a process (readseq,
// readseq #2, ...) to the highest resident set sampled inside its window,
// in bytes; an occurrence no sample fell in is absent.
func benchPeaks(pr *runner.PassResult) (order []string, peaks map[string]int64) {
	peaks = map[string]int64{}
	ws := benchWindows(pr)
	names := make([]string, len(ws))
	for i, w := range ws {
		names[i] = w.label
	}
	order = occurrences(names)
	page := int64(pr.Sampler.PageSize)
	for i, w := range ws {
		for _, smp := range pr.Sampler.Samples {
			t := smp.T.Sub(pr.Sampler.Start).Seconds()
			if t < w.start || t > w.end {
				continue
			}
			if v := int64(smp.Resident) * page; v > peaks[order[i]] {
				peaks[order[i]] = v
			}
		}
	}
	return order, peaks
}

// stageRSSTable compares, per benchmark of a pass, the peak resident set
// sampled while it ran. It has no rows when the pass runs one benchmark
// (the pass's peak says it all) or no engine has samples.
func stageRSSTable(run *runner.Run, pass string) table {
	s := run.Suite
	t := table{title: "Pass " + pass + ": peak RSS sampled during each benchmark (ratio to " + s.Baseline + ")", header: []string{"benchmark"}}
	var order []string
	seen := map[string]bool{}
	per := map[string]map[string]int64{}
	for _, e := range s.Engines {
		t.header = append(t.header, e.Name)
		pr := run.Result(pass, e.Name)
		if pr == nil || pr.Sampler == nil || pr.Failed() {
			continue
		}
		o, p := benchPeaks(pr)
		per[e.Name] = p
		for _, n := range o {
			if !seen[n] {
				seen[n] = true
				order = append(order, n)
			}
		}
	}
	if len(order) < 2 {
		return t
	}
	for _, n := range order {
		row := []cell{{text: n}}
		base := per[s.Baseline][n]
		any := false
		for _, e := range s.Engines {
			v, ok := per[e.Name][n]
			if !ok {
				row = append(row, missing(failed(run, pass, e.Name)))
				continue
			}
			any = true
			row = append(row, ratioCell(v, base))
		}
		if any {
			t.rows = append(t.rows, row)
		}
	}
	return t
}
