package dbbench

import (
	"sync"
	"time"
)

// rateLimiter is a port of the semantics of RocksDB's GenericRateLimiter,
// which db_bench makes for --benchmark_write_rate_limit (bytes/s),
// --benchmark_read_rate_limit (ops/s) and mixgraph's sine-wave rates:
// every refill period (100 ms, db_bench's default) the quota grows by one
// period's worth of the rate, and, as in RocksDB, quota left unused carries
// over only while it is below one period's worth, so an idle limiter allows
// a burst of at most two periods. Requests are served one at a time in
// arrival order (RocksDB's request queue; here the turn mutex, whose
// starvation mode keeps the order fair); a request waits for the refills
// it needs. RocksDB asserts that one request fits in a period's quota; a
// larger one here takes the quota of as many periods as it needs. The
// limiter's threads call request once per batch or per 100-1024 ops, so the
// mutexes cost nothing measurable.
type rateLimiter struct {
	turn sync.Mutex // held by the request being served

	mu         sync.Mutex // guards the fields below
	rate       float64    // units per second
	available  float64    // quota left
	nextRefill time.Time
}

// rateRefillPeriod is RocksDB's default refill period, which db_bench uses.
const rateRefillPeriod = 100 * time.Millisecond

func newRateLimiter(rate float64) *rateLimiter {
	return &rateLimiter{rate: rate, nextRefill: time.Now()}
}

// request blocks until n units may pass.
func (l *rateLimiter) request(n int64) {
	l.turn.Lock()
	defer l.turn.Unlock()
	need := float64(n)
	for {
		l.mu.Lock()
		now := time.Now()
		if !now.Before(l.nextRefill) {
			l.nextRefill = now.Add(rateRefillPeriod)
			if perPeriod := l.rate * rateRefillPeriod.Seconds(); l.available < perPeriod {
				l.available += perPeriod
			}
		}
		if l.available >= need {
			l.available -= need
			l.mu.Unlock()
			return
		}
		need -= l.available
		l.available = 0
		wait := l.nextRefill.Sub(now)
		l.mu.Unlock()
		time.Sleep(wait)
	}
}

// setRate changes the rate from the next refill on (RocksDB's
// RateLimiter::SetBytesPerSecond). Quota left is cut to one period's worth
// of the new rate, which a limiter made with an infinite rate (no limit
// yet) needs.
func (l *rateLimiter) setRate(rate float64) {
	l.mu.Lock()
	l.rate = rate
	if most := rate * rateRefillPeriod.Seconds(); l.available > most {
		l.available = most
	}
	l.mu.Unlock()
}
