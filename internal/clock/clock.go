package clock

import (
	"sync"
	"sync/atomic"
	"time"
)

// start is the epoch of Nanos.
var start = time.Now()

// tscScale converts time stamp counter ticks to Nanos.
type tscScale struct {
	tick0     uint64  // counter at time0
	time0     int64   // Nanos at tick0
	nsPerTick float64 // measured rate
}

// scale is nil until Calibrate found a usable counter.
var scale atomic.Pointer[tscScale]

// Nanos returns nanoseconds since the process started (see the package
// doc).
func Nanos() int64 {
	if s := scale.Load(); s != nil {
		return s.time0 + int64(float64(readTSC()-s.tick0)*s.nsPerTick)
	}
	return int64(time.Since(start))
}

var calibrateOnce sync.Once

// calibrationWindow is how long Calibrate measures the counter's rate.
const calibrationWindow = 10 * time.Millisecond

// bracketTries is how many times counterAt reads the counter between two
// reads of the monotonic clock, keeping the narrowest bracket.
const bracketTries = 16

// sinceStart reads the monotonic clock as Nanos's epoch counts it.
func sinceStart() time.Duration { return time.Since(start) }

// counterAt reads the counter (tick) between two reads of the monotonic
// clock (mono), bracketTries times, and returns the reading whose two
// monotonic reads lie closest together, with their midpoint. The rate is
// the difference of two such pairs over calibrationWindow, so an error of
// e nanoseconds in pairing a counter reading with a time is an error of
// e / 10 ms in every duration Nanos measures: a preemption between two
// unbracketed reads (microseconds to milliseconds on a loaded machine)
// made that parts per thousand or worse; the narrowest of the brackets,
// tens of nanoseconds, bounds it at a few parts per million.
func counterAt(tick func() uint64, mono func() time.Duration) (uint64, time.Duration) {
	var bestTick uint64
	var bestMid time.Duration
	bestWidth := time.Duration(-1)
	for range bracketTries {
		before := mono()
		t := tick()
		after := mono()
		if w := after - before; w >= 0 && (bestWidth < 0 || w < bestWidth) {
			bestTick, bestMid, bestWidth = t, before+w/2, w
		}
	}
	return bestTick, bestMid
}

// Calibrate measures the time stamp counter's rate against the monotonic
// clock, once per process (its first call takes calibrationWindow), and
// makes Nanos read the counter from then on when the CPU has an invariant
// one and the rate is plausible. It reports whether Nanos reads the
// counter.
func Calibrate() bool {
	calibrateOnce.Do(func() {
		if !invariantTSC() || !kernelTrustsTSC() {
			return
		}
		t0, m0 := counterAt(readTSC, sinceStart)
		time.Sleep(calibrationWindow)
		t1, m1 := counterAt(readTSC, sinceStart)
		if t1 <= t0 || m1 <= m0 {
			return
		}
		ns := float64(m1-m0) / float64(t1-t0)
		// Counters run at 0.1 to 10 GHz; anything else is a broken
		// counter (or a virtual machine's), and the monotonic clock stays.
		if ns < 0.1 || ns > 10 {
			return
		}
		scale.Store(&tscScale{tick0: t1, time0: int64(m1), nsPerTick: ns})
	})
	return scale.Load() != nil
}
