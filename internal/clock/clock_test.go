package clock

import (
	"testing"
	"time"
)

// TestNanosKeepsTheMonotonicRate: after Calibrate, Nanos measures an
// interval as the monotonic clock does, within 1% (the calibration is
// good to parts per million; the slack is for reads interrupted between
// the two clocks on a loaded machine).
func TestNanosKeepsTheMonotonicRate(t *testing.T) {
	t.Logf("time stamp counter in use: %v", Calibrate())
	for _, d := range []time.Duration{5 * time.Millisecond, 50 * time.Millisecond} {
		n0, m0 := Nanos(), time.Since(start)
		time.Sleep(d)
		n1, m1 := Nanos(), time.Since(start)
		got, want := n1-n0, int64(m1-m0)
		if diff := got - want; diff > want/100 || -diff > want/100 {
			t.Errorf("slept %v: Nanos advanced %d ns, the monotonic clock %d", d, got, want)
		}
	}
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
