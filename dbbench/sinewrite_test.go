package dbbench

import (
	"math"
	"testing"
	"time"
)

// TestSineWriteRate checks the wave without timing: the write limit at
// open is the wave at 0 (none when not positive), a change of rate moves
// the shared limiter once the interval has passed and never to a rate at
// or below 0, and an unlimited limiter's quota shrinks to one period of
// the new rate.
func TestSineWriteRate(t *testing.T) {
	r := &runner{}
	r.cfg.sineWrite = sineWriteConfig{on: true, intervalMs: 10}
	r.cfg.mix.sineA, r.cfg.mix.sineB, r.cfg.mix.sineC, r.cfg.mix.sineD = 1000, 1, math.Pi/2, 500
	r.applySineWriteRate()
	if r.cfg.writeRateLimit != 1500 {
		t.Fatalf("write limit at open %d, want 1500", r.cfg.writeRateLimit)
	}
	r.cfg.mix.sineD = -1000
	r.applySineWriteRate()
	if r.cfg.writeRateLimit != 0 {
		t.Fatalf("write limit at open %d for a wave at 0 below 0, want 0 (none)", r.cfg.writeRateLimit)
	}

	lim := newRateLimiter(math.Inf(1))
	lim.request(1 << 40)
	th := &thread{shared: &sharedState{writeLimiter: lim}}
	th.stats.start = time.Now().Add(-time.Second)
	last := time.Now()
	r.cfg.mix.sineD = 5000 // rate = 1000*sin(1*t+pi/2)+5000, 4000..6000
	r.followSineWriteRate(th, &last)
	if !math.IsInf(lim.rate, 1) {
		t.Fatalf("rate changed to %g before the interval passed", lim.rate)
	}
	last = time.Now().Add(-time.Second)
	r.followSineWriteRate(th, &last)
	if lim.rate < 4000 || lim.rate > 6000 || lim.available > lim.rate/10 {
		t.Fatalf("after the interval: rate %g, quota %g; want a rate in [4000, 6000] and at most a period's quota", lim.rate, lim.available)
	}
	rate := lim.rate
	r.cfg.mix.sineD = -5000
	last = time.Now().Add(-time.Second)
	r.followSineWriteRate(th, &last)
	if lim.rate != rate {
		t.Fatalf("a wave below 0 changed the rate to %g", lim.rate)
	}
}
