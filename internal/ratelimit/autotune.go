package ratelimit

import "math"

// Auto-tuning's constants, RocksDB's (GenericRateLimiter::TuneLocked).
const (
	refillsPerTune     = 100 // refill periods between tunings
	lowWatermarkPct    = 50  // drained in fewer periods than this: slow down
	highWatermarkPct   = 90  // drained in more periods than this: speed up
	adjustFactorPct    = 5   // the step of one tuning
	allowedRangeFactor = 20  // the rate stays within [ceiling/20, ceiling]
)

// tuneLocked sets the rate from the share of refill periods since the last
// tuning in which a request ran the bucket dry.
func (l *Limiter) tuneLocked() {
	prev := l.tunedTime
	l.tunedTime = l.clock.NowMicros()
	intervals := max((l.tunedTime-prev+l.periodMicros-1)/l.periodMicros, 1)
	drainedPct := l.drains * 100 / intervals
	floor := max(l.maxPerSec/allowedRangeFactor, 1)
	rate := l.bytesPerSec
	switch {
	case drainedPct == 0:
		rate = floor
	case drainedPct < lowWatermarkPct:
		rate = max(floor, min(rate, math.MaxInt64/100)*100/(100+adjustFactorPct))
	case drainedPct > highWatermarkPct:
		rate = min(l.maxPerSec, min(rate, math.MaxInt64/(100+adjustFactorPct))*(100+adjustFactorPct)/100)
	}
	if rate != l.bytesPerSec {
		l.setRateLocked(rate)
	}
	l.drains = 0
}
