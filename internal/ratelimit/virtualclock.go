package ratelimit

import "sync/atomic"

// VirtualClock is a Clock for tests that moves only when a request waits
// (WaitUntil jumps to the deadline at once, unless the wake signal is
// already there) or when told to (Advance). The time it shows is then the
// time the requests would have waited, and no test sleeps.
type VirtualClock struct{ now atomic.Int64 }

// NowMicros is the virtual time.
func (c *VirtualClock) NowMicros() int64 { return c.now.Load() }

// WaitUntil moves the clock to t, unless wake has a value or the clock is
// past t already.
func (c *VirtualClock) WaitUntil(t int64, wake <-chan struct{}) {
	select {
	case <-wake:
		return
	default:
	}
	for {
		now := c.now.Load()
		if now >= t || c.now.CompareAndSwap(now, t) {
			return
		}
	}
}

// Advance moves the clock forward by d microseconds.
func (c *VirtualClock) Advance(d int64) { c.now.Add(d) }
