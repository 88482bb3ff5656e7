package clock

import (
	"testing"
	"time"
)

// TestStopwatchAgreesWithNanos: a lap converted by ToNanos lies between
// the time slept and the Nanos difference bracketing the Stopwatch, on
// whichever clock Calibrate left in use.
func TestStopwatchAgreesWithNanos(t *testing.T) {
	t.Logf("time stamp counter in use: %v", Calibrate())
	const d = 20 * time.Millisecond
	const slack = 50 * time.Microsecond // counter skew between CPUs, conversion rounding
	before := Nanos()
	w := StartStopwatch()
	time.Sleep(d)
	laps := []int64{w.Lap(), w.Lap()}
	after := Nanos()
	if w.Ticking() != (scale.Load() != nil) {
		t.Fatalf("Ticking() = %v with the counter in use %v", w.Ticking(), scale.Load() != nil)
	}
	w.ToNanos(laps)
	if laps[0] < int64(d) || laps[0] > after-before+int64(slack) {
		t.Errorf("lap after sleeping %v: %d ns; Nanos around it advanced %d ns", d, laps[0], after-before)
	}
	if laps[1] < laps[0] {
		t.Errorf("second lap %d ns before the first %d ns", laps[1], laps[0])
	}
}

// TestStopwatchNanosUnitsKept: a Stopwatch on the monotonic clock reads
// nanoseconds already, and ToNanos leaves its laps as they are.
func TestStopwatchNanosUnitsKept(t *testing.T) {
	w := Stopwatch{t0: uint64(time.Since(start))}
	if w.Ticking() {
		t.Fatal("a Stopwatch without a counter rate says it ticks")
	}
	time.Sleep(time.Millisecond)
	lap := w.Lap()
	if lap < int64(time.Millisecond) {
		t.Fatalf("lap after 1 ms: %d ns", lap)
	}
	laps := []int64{lap, 7}
	w.ToNanos(laps)
	if laps[0] != lap || laps[1] != 7 {
		t.Fatalf("ToNanos changed nanosecond laps: %v", laps)
	}
}
