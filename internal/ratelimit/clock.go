package ratelimit

import "time"

// Clock is the limiter's time source. Tests substitute a clock that moves
// only when told to, so that no test sleeps.
type Clock interface {
	// NowMicros is a monotonic time in microseconds.
	NowMicros() int64
	// WaitUntil returns once NowMicros has reached t or wake has a value,
	// whichever comes first. It may return early; the limiter rechecks.
	WaitUntil(t int64, wake <-chan struct{})
}

// SystemClock is the monotonic clock of package time.
type SystemClock struct{ start time.Time }

// NewSystemClock returns a SystemClock counting from now.
func NewSystemClock() *SystemClock { return &SystemClock{start: time.Now()} }

// NowMicros is the time since the clock was made.
func (c *SystemClock) NowMicros() int64 { return time.Since(c.start).Microseconds() }

// WaitUntil sleeps on a timer until t, or until wake.
func (c *SystemClock) WaitUntil(t int64, wake <-chan struct{}) {
	d := time.Duration(t-c.NowMicros()) * time.Microsecond
	if d <= 0 {
		return
	}
	timer := time.NewTimer(d)
	select {
	case <-timer.C:
	case <-wake:
		timer.Stop()
	}
}
