package dbbench

import "time"

// sineWriteConfig is db_bench's --sine_write_rate: the fills' write rate
// limit follows mixgraph's sine wave, sine_a*sin(sine_b*t+sine_c)+sine_d
// bytes a second at t seconds into the benchmark:
//
//   - at open, --benchmark_write_rate_limit becomes the wave's value at 0
//     (so every benchmark's write limiter, the background writer's too,
//     starts there; a value at or below 0 means no limit, as for the
//     flag);
//   - in the fill loop (DoWrite), after each batch, once
//     --sine_write_rate_interval_milliseconds have passed since the thread
//     started or last changed it, the shared write limiter's rate becomes
//     the wave's value at the current time. db_bench replaces the limiter
//     with a new one; here its rate changes, and a value at or below 0
//     leaves it as it is (db_bench would make a limiter that never
//     refills). When the wave is not positive at 0, the benchmark starts
//     with a limiter of infinite rate, which the first change limits.
type sineWriteConfig struct {
	on         bool
	intervalMs uint64
}

// applySineWriteRate sets --benchmark_write_rate_limit from the wave, as
// db_bench does at open.
func (r *runner) applySineWriteRate() {
	if !r.cfg.sineWrite.on {
		return
	}
	if v := r.cfg.mix.sineRate(0); v > 0 {
		r.cfg.writeRateLimit = uint64(v)
	} else {
		r.cfg.writeRateLimit = 0
	}
}

// followSineWriteRate moves the shared write limiter's rate along the wave
// when the interval has passed since *last.
func (r *runner) followSineWriteRate(t *thread, last *time.Time) {
	now := time.Now()
	if now.Sub(*last) <= time.Duration(r.cfg.sineWrite.intervalMs)*time.Millisecond {
		return
	}
	*last = now
	rate := float64(int64(r.cfg.mix.sineRate(now.Sub(t.stats.start).Seconds())))
	if rate <= 0 {
		return
	}
	t.shared.writeLimiter.setRate(rate)
}
