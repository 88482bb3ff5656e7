package dbbench

import "time"

// duration is db_bench's Duration: a loop bound by an op count, or by
// seconds when --duration is set (then the op count is ignored and the clock
// is read only each time the total crosses a multiple of
// --ops_between_duration_checks).
type duration struct {
	maxSeconds  int64
	maxOps      int64
	ops         int64
	granularity int64
	start       time.Time
}

func (r *runner) newDuration(maxSeconds, maxOps int64) duration {
	g := int64(r.cfg.opsBetweenDurationChecks)
	if g <= 0 {
		g = 1
	}
	return duration{maxSeconds: maxSeconds, maxOps: maxOps, granularity: g, start: time.Now()}
}

// done adds increment ops and reports whether the loop should stop.
func (d *duration) done(increment int64) bool {
	if increment <= 0 {
		increment = 1
	}
	d.ops += increment
	if d.maxSeconds > 0 {
		if d.ops/d.granularity != (d.ops-increment)/d.granularity {
			return int64(time.Since(d.start)/time.Second) >= d.maxSeconds
		}
		return false
	}
	return d.ops > d.maxOps
}

// runLimit bounds a run of up to n operations, each counted by done(1)
// before the run starts, so that with --duration the clock is read only
// for a run's first operation: every operation before it has then ended,
// as with one operation at a time.
func (d *duration) runLimit(n int64) int64 {
	if d.maxSeconds <= 0 {
		return n
	}
	nextCheck := ((d.ops+1)/d.granularity + 1) * d.granularity
	return min(n, nextCheck-1-d.ops)
}
