package clock

import "time"

// A Stopwatch times a run of events from one start at less cost a reading
// than Nanos: Lap reads the clock in its own unit (time stamp counter ticks
// where Calibrate adopted the counter when the Stopwatch started, else
// nanoseconds) and leaves the conversion to ToNanos, once for the whole run.
// A timed run (a scan, or a run of Gets or Puts, with --histogram) reads
// the clock after every entry, in a scan at 8 threads about a tenth of an
// entry's CPU, and a lap skips Nanos's load of the scale and its two
// conversions. A Stopwatch belongs to one goroutine; its
// laps, converted, agree with differences of Nanos up to rounding.
type Stopwatch struct {
	nsPerTick float64 // 0: laps are nanoseconds
	t0        uint64  // the counter, or nanoseconds since start, when started
}

// StartStopwatch starts a Stopwatch now.
func StartStopwatch() Stopwatch {
	if s := scale.Load(); s != nil {
		return Stopwatch{nsPerTick: s.nsPerTick, t0: readTSC()}
	}
	return Stopwatch{t0: uint64(time.Since(start))}
}

// Ticking reports whether the Stopwatch's laps are time stamp counter
// ticks, so that code outside Go (the rocksdb engine's C loops) can read
// the same counter and hand ToNanos laps in the same unit.
func (w *Stopwatch) Ticking() bool { return w.nsPerTick != 0 }

// Lap returns the time since the Stopwatch started, in its unit.
func (w *Stopwatch) Lap() int64 {
	if w.nsPerTick != 0 {
		return int64(readTSC() - w.t0)
	}
	return int64(uint64(time.Since(start)) - w.t0)
}

// ToNanos converts laps, in the Stopwatch's unit, to nanoseconds in place.
func (w *Stopwatch) ToNanos(laps []int64) {
	if w.nsPerTick == 0 {
		return
	}
	for i, l := range laps {
		laps[i] = int64(float64(l) * w.nsPerTick)
	}
}
