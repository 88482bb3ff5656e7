package dbbench

import (
	"sync"
	"time"
)

// rateLimiter is a token bucket shared by a benchmark's threads
// (--benchmark_write_rate_limit in bytes/s, --benchmark_read_rate_limit in
// ops/s). Threads call request once per batch or per 256/1024 ops, so a
// mutex costs nothing measurable here.
type rateLimiter struct {
	mu   sync.Mutex
	rate float64 // units per second
	next time.Time
}

func newRateLimiter(rate float64) *rateLimiter {
	return &rateLimiter{rate: rate, next: time.Now()}
}

// request blocks until n units may pass.
func (l *rateLimiter) request(n int64) {
	l.mu.Lock()
	now := time.Now()
	if l.next.Before(now) {
		l.next = now
	}
	wait := l.next.Sub(now)
	l.next = l.next.Add(time.Duration(float64(n) / l.rate * float64(time.Second)))
	l.mu.Unlock()
	if wait > 0 {
		time.Sleep(wait)
	}
}

// setRate changes the rate for the requests that follow (RocksDB's
// RateLimiter::SetBytesPerSecond).
func (l *rateLimiter) setRate(rate float64) {
	l.mu.Lock()
	l.rate = rate
	l.mu.Unlock()
}
