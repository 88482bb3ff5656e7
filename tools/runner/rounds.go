package runner

import (
	"fmt"
	"sort"

	"github.com/godbbench/godbbench/tools/suite"
)

// medians folds the rounds of a repeated suite into one PassResult per
// (engine, pass), in the suite's order, for the report:
//   - it failed when any round failed (its status and reason, the round
//     named);
//   - each result line (by position) has the median ops/s, micros/op and
//     seconds over the rounds that have that line, and its Spread;
//   - a benchmark warned about in any round carries that warning;
//   - memory (sampler, peak RSS) is that of the round with the median peak
//     RSS; DB sizes, JSON records, version and pass warnings are the first
//     round's.
//
// The rounds stay in Rounds, with their own logs.
func medians(s *suite.Suite, all []*PassResult) []*PassResult {
	var out []*PassResult
	for _, e := range s.Engines {
		for _, p := range s.Passes {
			var rounds []*PassResult
			for _, pr := range all {
				if pr.Engine == e.Name && pr.Pass == p.Name {
					rounds = append(rounds, pr)
				}
			}
			if len(rounds) > 0 {
				out = append(out, median(rounds))
			}
		}
	}
	return out
}

func median(rounds []*PassResult) *PassResult {
	agg := *rounds[0]
	agg.Round, agg.Rounds = 0, rounds
	for _, r := range rounds {
		if r.Failed() {
			agg.Status, agg.Failure = r.Status, fmt.Sprintf("round %d: %s", r.Round, r.Failure)
			break
		}
	}
	byRSS := append([]*PassResult(nil), rounds...)
	sort.SliceStable(byRSS, func(i, j int) bool { return peakRSS(byRSS[i]) < peakRSS(byRSS[j]) })
	mid := byRSS[len(byRSS)/2]
	agg.Sampler, agg.SeriesFile = mid.Sampler, mid.SeriesFile
	agg.Lines = append(agg.Lines[:0:0], rounds[0].Lines...)
	agg.Spread = make([]Spread, len(agg.Lines))
	for i := range agg.Lines {
		l := &agg.Lines[i]
		var ops, micros, secs []float64
		for _, r := range rounds {
			if i >= len(r.Lines) || r.Lines[i].Name != l.Name {
				continue
			}
			rl := r.Lines[i]
			ops, micros, secs = append(ops, float64(rl.OpsPerSec)), append(micros, rl.MicrosPerOp), append(secs, rl.Seconds)
			if r != rounds[0] {
				l.Warnings = appendNew(l.Warnings, rl.Warnings)
			}
		}
		l.OpsPerSec, l.MicrosPerOp, l.Seconds = int64(middle(ops)), middle(micros), middle(secs)
		sort.Float64s(ops)
		agg.Spread[i] = Spread{Min: ops[0], Max: ops[len(ops)-1], N: len(ops)}
	}
	return &agg
}

func peakRSS(p *PassResult) int64 {
	if p.Sampler == nil {
		return 0
	}
	return p.Sampler.PeakRSSBytes
}

// middle is the median of vs (the mean of the middle two for an even count).
func middle(vs []float64) float64 {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func appendNew(dst, src []string) []string {
	for _, w := range src {
		found := false
		for _, d := range dst {
			found = found || d == w
		}
		if !found {
			dst = append(dst, w)
		}
	}
	return dst
}
