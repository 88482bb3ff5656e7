package runner

import (
	"os"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/tools/results"
	"github.com/godbbench/godbbench/tools/sampler"
)

func TestMedianOfRounds(t *testing.T) {
	round := func(n int, ops []int64, rss int64, status string) *PassResult {
		pr := &PassResult{Pass: "p", Engine: "e", Round: n, Status: status, Sampler: &sampler.Result{PeakRSSBytes: rss}}
		if status != "ok" {
			pr.Failure = "boom"
		}
		for i, o := range ops {
			l := results.Line{Name: []string{"fillrandom", "readrandom"}[i], OpsPerSec: o, MicrosPerOp: 1e6 / float64(o), Seconds: 1}
			if n == 3 && i == 1 {
				l.Warnings = []string{"WARNING: x"}
			}
			pr.Lines = append(pr.Lines, l)
		}
		return pr
	}
	rs := []*PassResult{round(1, []int64{100, 1000}, 30, "ok"), round(2, []int64{300, 900}, 10, "ok"), round(3, []int64{200, 1100}, 20, "ok")}
	m := median(rs)
	if m.Lines[0].OpsPerSec != 200 || m.Lines[1].OpsPerSec != 1000 || m.Spread[0] != (Spread{Min: 100, Max: 300, N: 3}) {
		t.Fatalf("lines %+v spread %+v", m.Lines, m.Spread)
	}
	if len(m.Lines[1].Warnings) != 1 || len(m.Lines[0].Warnings) != 0 || len(rs[0].Lines[1].Warnings) != 0 {
		t.Fatalf("warnings %+v; round 1's lines must stay untouched", m.Lines)
	}
	if m.Sampler.PeakRSSBytes != 20 || m.Round != 0 || len(m.Rounds) != 3 || !m.OK() {
		t.Fatalf("%+v", m)
	}
	rs[1].Status, rs[1].Failure = "exit 1", "boom"
	if m := median(rs); m.Status != "exit 1" || m.Failure != "round 2: boom" {
		t.Fatalf("status %q failure %q", m.Status, m.Failure)
	}
}

func TestRepeatRunsRounds(t *testing.T) {
	s := fakeSuite(t, "  - {name: a, engine: native}\n", "")
	s.Repeat = 2
	var progress strings.Builder
	run, err := Execute(s, fakeBins(t), &progress)
	if err != nil {
		t.Fatal(err)
	}
	fill := run.Result("fill", "a")
	if len(run.Results) != 2 || len(fill.Rounds) != 2 || len(fill.Spread) != 2 || fill.Spread[0].N != 2 {
		t.Fatalf("%d results, %+v", len(run.Results), fill)
	}
	if _, err := os.Stat(fill.Rounds[1].LogFile); err != nil || !strings.HasSuffix(fill.Rounds[1].LogFile, "fill-a-r2.log") {
		t.Fatalf("round 2 log %q: %v", fill.Rounds[1].LogFile, err)
	}
	if !strings.Contains(progress.String(), "[4/4] again on a, round 2: ok") {
		t.Fatalf("progress:\n%s", progress.String())
	}
}
