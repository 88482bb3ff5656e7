package dbbench

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// latencyStats is a thread's Stats with histograms on, its last operation
// at t0.
func latencyStats(t0 time.Time) *Stats {
	r := &runner{}
	r.cfg.histogram = true
	r.cfg.slowUsecs = math.MaxUint64
	return &Stats{r: r, lastOp: t0, nextRpt: math.MaxInt64, detailed: true}
}

// TestTimedRunLatencies checks finishedTimedRun's integer arithmetic
// against its definition: each operation recorded by recordLatency at
// lastOp + share×(i+1) + doneNs[i].
func TestTimedRunLatencies(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2026, 12, 3, 11, 0, 0, 123_456_789, time.UTC)
	got, want := latencyStats(t0), latencyStats(t0)
	for range 200 {
		n := 1 + rng.IntN(300)
		callStart := got.lastOp.Add(time.Duration(rng.Int64N(50_000)))
		doneNs := make([]int64, n)
		var at int64
		for i := range doneNs {
			at += rng.Int64N(3_000) // many runs of sub-microsecond operations
			if rng.IntN(50) == 0 {
				at += rng.Int64N(5_000_000)
			}
			doneNs[i] = at
		}
		from := want.lastOp
		share := callStart.Sub(from) / time.Duration(n)
		for i, d := range doneNs {
			want.recordLatency(from.Add(share*time.Duration(i+1)+time.Duration(d)), opRead)
		}
		got.finishedTimedRun(callStart, doneNs, opRead)
		if !got.lastOp.Equal(want.lastOp) {
			t.Fatalf("lastOp %v, want %v", got.lastOp, want.lastOp)
		}
	}
	if g, w := got.hist[opRead].String(), want.hist[opRead].String(); g != w {
		t.Fatalf("histogram\n%s\nwant\n%s", g, w)
	}
	sameHdr(t, got.hdr[opRead].histogram(), want.hdr[opRead].histogram())
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
