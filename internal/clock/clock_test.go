package clock

import (
	"testing"
	"time"
)

// TestNanosKeepsTheMonotonicRate: after Calibrate, Nanos measures an
// interval as the monotonic clock does, within 1% (the calibration is
// good to parts per million). Each end of the interval is read between
// two reads of the monotonic clock no more than 20 µs apart, so that a
// preemption between the clocks' reads does not count as an error.
func TestNanosKeepsTheMonotonicRate(t *testing.T) {
	t.Logf("time stamp counter in use: %v", Calibrate())
	const d = 50 * time.Millisecond
	n0, m0 := bracketed(t)
	time.Sleep(d)
	n1, m1 := bracketed(t)
	got, want := n1-n0, m1-m0
	if diff := got - want; diff > want/100 || -diff > want/100 {
		t.Errorf("slept %v: Nanos advanced %d ns, the monotonic clock %d", d, got, want)
	}
}

// bracketed reads Nanos and the monotonic clock at about the same time.
func bracketed(t *testing.T) (nanos, mono int64) {
	t.Helper()
	for range 1000 {
		before := int64(time.Since(start))
		n := Nanos()
		after := int64(time.Since(start))
		if after-before <= 20_000 {
			return n, before + (after-before)/2
		}
	}
	t.Fatal("no two monotonic clock reads within 20 µs in 1000 tries")
	return 0, 0
}

// TestNanosDoesNotGoBack: successive reads never go back by more than a
// microsecond (reads on two CPUs may differ by the counters' skew).
func TestNanosDoesNotGoBack(t *testing.T) {
	Calibrate()
	last := Nanos()
	for range 1_000_000 {
		n := Nanos()
		if n < last-1000 {
			t.Fatalf("Nanos went back from %d to %d", last, n)
		}
		last = max(last, n)
	}
}

// TestNanosAgreesAcrossCalibration: Nanos continues across Calibrate
// (its epoch is the process start either way) within the calibration's
// error.
func TestNanosAgreesAcrossCalibration(t *testing.T) {
	Calibrate()
	if got, want := Nanos(), int64(time.Since(start)); got-want > int64(time.Millisecond) || want-got > int64(time.Millisecond) {
		t.Fatalf("Nanos %d, monotonic clock since start %d", got, want)
	}
}

func BenchmarkNanos(b *testing.B) {
	Calibrate()
	var sink int64
	for b.Loop() {
		sink += Nanos()
	}
	_ = sink
}

func BenchmarkTimeSince(b *testing.B) {
	var sink int64
	for b.Loop() {
		sink += int64(time.Since(start))
	}
	_ = sink
}

// BenchmarkTimeNow is what the per-operation loops read before Nanos: a
// wall and a monotonic reading.
func BenchmarkTimeNow(b *testing.B) {
	var sink int64
	for b.Loop() {
		sink += time.Now().UnixNano()
	}
	_ = sink
}

// TestCounterAtTakesTheNarrowestBracket: counterAt pairs the counter with
// the midpoint of the narrowest of its brackets, so that a try preempted
// between its reads (a wide bracket) does not enter the rate.
func TestCounterAtTakesTheNarrowestBracket(t *testing.T) {
	// Each try reads mono, tick, mono. Widths by try: 5000, 300, 40, 900,
	// then 70 for the rest; the third try (tick 102) is the narrowest.
	widths := []time.Duration{5000, 300, 40, 900}
	var monoReads []time.Duration
	now := time.Duration(1_000_000)
	for i := range bracketTries {
		w := time.Duration(70)
		if i < len(widths) {
			w = widths[i]
		}
		monoReads = append(monoReads, now, now+w)
		now += w + 10
	}
	nextMono, nextTick := 0, uint64(100)
	mono := func() time.Duration { m := monoReads[nextMono]; nextMono++; return m }
	tick := func() uint64 { nextTick++; return nextTick - 1 }
	gotTick, gotMid := counterAt(tick, mono)
	if nextMono != 2*bracketTries {
		t.Fatalf("counterAt read the monotonic clock %d times, want %d", nextMono, 2*bracketTries)
	}
	if wantMid := monoReads[4] + 20; gotTick != 102 || gotMid != wantMid {
		t.Fatalf("counterAt = tick %d at %v, want tick 102 at %v", gotTick, gotMid, wantMid)
	}
}
