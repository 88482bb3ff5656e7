package dbbench

import (
	"math"
	"math/rand/v2"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// latencyStats is a thread's Stats with histograms on, its last operation
// at clock time t0.
func latencyStats(t0 int64) *Stats {
	r := &runner{}
	r.cfg.histogram = true
	r.cfg.slowUsecs = math.MaxUint64
	return &Stats{r: r, lastOpNs: t0, nextRpt: math.MaxInt64, detailed: true}
}

// TestTimedRunLatencies checks finishedTimedRun against its definition:
// operation i ends share×(i+1) + doneNs[i] after the last one before the
// run, or after the resume from a yield that came later, and its latency
// is the difference of whole microseconds.
func TestTimedRunLatencies(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	t0 := int64(123_456_789)
	got := latencyStats(t0)
	want := NewHistogram()
	last := t0
	for range 200 {
		n := 1 + rng.IntN(300)
		callStart := got.lastOpNs + rng.Int64N(50_000)
		// The yield clock finishedTimedRun keeps reads the real clock;
		// the run sees the resume set here.
		got.yield.last = 0
		from := last
		if rng.IntN(4) == 0 { // a yield between the last run and this one
			wait := rng.Int64N(20_000_000)
			got.yield.last = from + wait
			from, callStart = from+wait, callStart+wait
		}
		doneNs := make([]int64, n)
		var at int64
		for i := range doneNs {
			at += rng.Int64N(3_000) // many runs of sub-microsecond operations
			if rng.IntN(50) == 0 {
				at += rng.Int64N(5_000_000)
			}
			doneNs[i] = at
		}
		share := (callStart - from) / int64(n)
		for i, d := range doneNs {
			end := from + share*int64(i+1) + d
			want.Add(uint64(max(end/1000-last/1000, 0)))
			last = end
		}
		got.finishedTimedRun(callStart, doneNs, opRead)
		if got.lastOpNs != last {
			t.Fatalf("lastOpNs %d, want %d", got.lastOpNs, last)
		}
	}
	if g, w := got.hist[opRead].String(), want.String(); g != w {
		t.Fatalf("histogram\n%s\nwant\n%s", g, w)
	}
	if g, w := got.hdr[opRead].histogram().TotalCount(), int64(want.Count()); g != w {
		t.Fatalf("hdr histogram holds %d operations, want %d", g, w)
	}
}

// TestTimedRunYieldWait: a yield's wait before a run lands in the run's
// first operation alone, not in a share of every operation's latency.
func TestTimedRunYieldWait(t *testing.T) {
	const wait = 6_000_000 // ns
	t0 := int64(1_000_000_000)
	s := latencyStats(t0)
	s.yield.last = t0 + wait
	doneNs := make([]int64, 64)
	for i := range doneNs {
		doneNs[i] = int64(i+1) * 900 // 0.9 µs an operation
	}
	s.finishedTimedRun(t0+wait+2_000, doneNs, opRead)
	h := s.hist[opRead]
	if h.Count() != 64 {
		t.Fatalf("%v operations recorded, want 64", h.Count())
	}
	if h.Max() < wait/1000 || h.Percentile(98) > 10 {
		t.Fatalf("max %v µs, P98 %v µs: want one operation of at least %d µs and the rest under 10", h.Max(), h.Percentile(98), wait/1000)
	}
}

// TestHdrRecorderLowCounts checks that counting small latencies apart
// and flushing them gives the histogram of recording each value, with
// values below 1 counted as 1 and values above an hour as an hour.
func TestHdrRecorderLowCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	r := newHdrRecorder()
	direct := hdr.New(1, 3_600_000_000, 3)
	for i := range 100_000 {
		var v int64
		switch i % 10 {
		case 0:
			v = rng.Int64N(10_000_000)
		case 1:
			v = -rng.Int64N(5)
		case 2:
			v = 3_600_000_000 + rng.Int64N(10)
		default:
			v = rng.Int64N(2 * hdrLow)
		}
		r.record(v)
		_ = direct.RecordValue(min(max(v, 1), 3_600_000_000))
		if i == 50_000 {
			// A read in the middle flushes; recording goes on after it.
			r.histogram()
		}
	}
	other := newHdrRecorder()
	other.record(0)
	other.record(hdrLow - 1)
	_ = direct.RecordValue(1)
	_ = direct.RecordValue(hdrLow - 1)
	r.merge(other)
	sameHdr(t, r.histogram(), direct)
}

func sameHdr(t *testing.T, got, want *hdr.Histogram) {
	t.Helper()
	if got.TotalCount() != want.TotalCount() || got.Min() != want.Min() || got.Max() != want.Max() || got.Mean() != want.Mean() {
		t.Fatalf("hdr count/min/max/mean %d %d %d %v, want %d %d %d %v", got.TotalCount(), got.Min(), got.Max(), got.Mean(),
			want.TotalCount(), want.Min(), want.Max(), want.Mean())
	}
	for _, p := range []float64{1, 25, 50, 75, 90, 99, 99.9, 99.99, 100} {
		if g, w := got.ValueAtQuantile(p), want.ValueAtQuantile(p); g != w {
			t.Fatalf("P%v = %d, want %d", p, g, w)
		}
	}
}
