// Package ratelimit is RocksDB's GenericRateLimiter (util/rate_limiter.cc,
// 7.8.3): a token bucket of bytes that flushes and compactions ask before
// each write (and, in the read modes, before each read).
//
// Contract:
//   - Every refill period the bucket gains BytesPerSec*period bytes (the
//     single burst), unless it already holds that many: a period's unused
//     bytes carry over once, no further. The first refill happens on the
//     first request that finds the bucket short.
//   - Request returns when all its bytes have been granted. A request larger
//     than one burst is granted burst by burst. A request that finds enough
//     bytes takes them at once; otherwise it queues behind its priority's
//     earlier requests and the refills grant queued requests in order:
//     user first, then high, mid and low, except that one refill in
//     Fairness (10 in db_bench) serves high after mid and low, and one in
//     Fairness serves mid after low, so that no priority starves. The
//     bytes of a request the refill cannot cover are granted in part and
//     the rest waits for the next refill.
//   - A request of an operation the Mode does not limit returns at once and
//     is not counted (db_bench: writes only, or reads only with
//     --rate_limit_bg_reads).
//   - Auto-tuned (--rate_limiter_auto_tuned), the limiter starts at half the
//     rate and every 100 refill periods looks at how many of them ran dry (a
//     request had to wait for the next refill): none, and the rate drops to
//     its ceiling/20; under half, it shrinks by 5%; over 90%, it grows by
//     5%, up to the ceiling (the rate given); otherwise it stays.
//   - Time comes from a Clock; nothing in the package sleeps except
//     through it.
//
// A Limiter is safe for concurrent use. The fast path (bytes available)
// takes one mutex and allocates nothing.
package ratelimit

import (
	"math"
	"sync"
)

// Priority is RocksDB's Env::IOPriority.
type Priority int

// The priorities in RocksDB's order. Flushes write at High, compactions
// read and write at Low, user reads charged by --rate_limit_user_ops at
// User.
const (
	Low Priority = iota
	Mid
	High
	User
	// Total names all priorities together in TotalBytesThrough and
	// TotalRequests; a request at Total is never limited.
	Total
)

// Op is the kind of I/O a request is for.
type Op int

// The kinds of I/O.
const (
	Read Op = iota
	Write
)

// Mode is which kinds of I/O the limiter limits (RocksDB's
// RateLimiter::Mode).
type Mode int

// The modes.
const (
	WritesOnly Mode = iota
	ReadsOnly
	AllIO
)

// Config describes a Limiter.
type Config struct {
	// BytesPerSec is the rate (the ceiling when AutoTuned); it must be
	// positive.
	BytesPerSec int64
	// RefillPeriodMicros is the refill period; 0 means 100000 (100 ms).
	RefillPeriodMicros int64
	// Fairness: one refill in Fairness serves high after mid and low
	// (see the package contract); 0 means 10, values above 100 mean 100.
	Fairness int
	Mode     Mode
	// AutoTuned adjusts the rate between BytesPerSec/20 and BytesPerSec.
	AutoTuned bool
	// Clock is the time source; nil means a SystemClock.
	Clock Clock
	// OnDrain, when set, is called (with the limiter's lock held) each
	// time a request must wait for the next refill: RocksDB's
	// rocksdb.number.rate_limiter.drains.
	OnDrain func()
}

// request is a queued request; it is made only when a request must wait.
type request struct {
	left    int64 // bytes not yet granted
	bytes   int64 // bytes asked for
	granted bool
	wake    chan struct{} // one buffered signal: granted, or a duty to take up
}

// Limiter is a generic rate limiter (see the package contract).
type Limiter struct {
	mu           sync.Mutex
	clock        Clock
	mode         Mode
	periodMicros int64
	fairness     uint32
	autoTuned    bool
	onDrain      func()

	bytesPerSec int64 // the current rate
	maxPerSec   int64 // the ceiling of auto-tuning
	burst       int64 // bytes per refill

	available   int64
	nextRefill  int64
	waitPending bool // a queued request is waiting for the next refill
	queues      [Total][]*request
	rnd         uint32

	drains    int64 // since the last tuning
	tunedTime int64

	requests [Total]int64
	through  [Total]int64
}

// New returns a limiter for c.
func New(c Config) *Limiter {
	l := &Limiter{clock: c.Clock, mode: c.Mode, periodMicros: c.RefillPeriodMicros,
		fairness: uint32(c.Fairness), autoTuned: c.AutoTuned, onDrain: c.OnDrain,
		maxPerSec: max(c.BytesPerSec, 1), rnd: 0x2545f491}
	if l.clock == nil {
		l.clock = NewSystemClock()
	}
	if l.periodMicros <= 0 {
		l.periodMicros = 100000
	}
	if l.fairness == 0 {
		l.fairness = 10
	}
	l.fairness = min(l.fairness, 100)
	rate := l.maxPerSec
	if l.autoTuned {
		rate = max(rate/2, 1)
	}
	l.setRateLocked(rate)
	l.nextRefill = l.clock.NowMicros()
	l.tunedTime = l.nextRefill
	return l
}

// setRateLocked sets the rate and the burst it gives.
func (l *Limiter) setRateLocked(bytesPerSec int64) {
	l.bytesPerSec = bytesPerSec
	if math.MaxInt64/bytesPerSec < l.periodMicros {
		l.burst = math.MaxInt64 / 1000000
	} else {
		l.burst = max(bytesPerSec*l.periodMicros/1000000, 1)
	}
}

// SetBytesPerSecond changes the rate (and, auto-tuned, not the ceiling).
func (l *Limiter) SetBytesPerSecond(bytesPerSec int64) {
	l.mu.Lock()
	l.setRateLocked(max(bytesPerSec, 1))
	l.mu.Unlock()
}

// BytesPerSecond is the current rate.
func (l *Limiter) BytesPerSecond() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bytesPerSec
}

// SingleBurstBytes is the most one refill grants.
func (l *Limiter) SingleBurstBytes() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.burst
}

// Limits reports whether requests for op are limited.
func (l *Limiter) Limits(op Op) bool {
	switch l.mode {
	case WritesOnly:
		return op == Write
	case ReadsOnly:
		return op == Read
	}
	return true
}

// TotalBytesThrough is the bytes granted at pri (Total: at all priorities).
func (l *Limiter) TotalBytesThrough(pri Priority) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return sumOrOne(&l.through, pri)
}

// TotalRequests is the number of grants asked for at pri (Total: at all
// priorities); a request larger than one burst counts once per burst.
func (l *Limiter) TotalRequests(pri Priority) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return sumOrOne(&l.requests, pri)
}

func sumOrOne(a *[Total]int64, pri Priority) int64 {
	if pri < Total {
		return a[pri]
	}
	var n int64
	for _, v := range a {
		n += v
	}
	return n
}

// Request waits until bytes have been granted at pri for op, a burst at a
// time. It returns at once when the mode does not limit op or pri is
// Total.
func (l *Limiter) Request(bytes int64, pri Priority, op Op) {
	for bytes > 0 {
		bytes -= l.RequestToken(bytes, pri, op)
	}
}

// RequestToken waits for a grant of up to one burst of bytes and returns
// how many were granted (RocksDB's RateLimiter::RequestToken without
// alignment): the caller does that much I/O and asks again for the rest.
// When the mode does not limit op or pri is Total, it grants all of bytes
// at once.
func (l *Limiter) RequestToken(bytes int64, pri Priority, op Op) int64 {
	if pri < Low || pri >= Total || !l.Limits(op) || bytes <= 0 {
		return max(bytes, 0)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	bytes = min(bytes, l.burst)
	l.requestLocked(bytes, pri)
	return bytes
}

// requestLocked is GenericRateLimiter::Request.
func (l *Limiter) requestLocked(bytes int64, pri Priority) {
	if l.autoTuned && l.clock.NowMicros()-l.tunedTime >= refillsPerTune*l.periodMicros {
		l.tuneLocked()
	}
	l.requests[pri]++
	if l.available >= bytes {
		l.available -= bytes
		l.through[pri] += bytes
		return
	}
	r := &request{left: bytes, bytes: bytes, wake: make(chan struct{}, 1)}
	l.queues[pri] = append(l.queues[pri], r)
	for !r.granted {
		untilRefill := l.nextRefill - l.clock.NowMicros()
		switch {
		case untilRefill > 0 && l.waitPending:
			// Another queued request waits for the refill and will
			// signal this one when it is granted or must take over.
			l.mu.Unlock()
			<-r.wake
			l.mu.Lock()
		case untilRefill > 0:
			l.drains++
			if l.onDrain != nil {
				l.onDrain()
			}
			l.waitPending = true
			deadline := l.nextRefill
			l.mu.Unlock()
			l.clock.WaitUntil(deadline, r.wake)
			l.mu.Lock()
			l.waitPending = false
		default:
			l.refillAndGrantLocked()
			if r.granted {
				// Hand the duty of waiting for refills to the first
				// request still queued.
				for p := User; p >= Low; p-- {
					if q := l.queues[p]; len(q) > 0 {
						signal(q[0])
						break
					}
				}
			}
		}
	}
}

func signal(r *request) {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// refillAndGrantLocked adds a burst and grants queued requests in the
// order of priorityOrder.
func (l *Limiter) refillAndGrantLocked() {
	l.nextRefill = l.clock.NowMicros() + l.periodMicros
	if l.available < l.burst {
		l.available += l.burst
	}
	for _, pri := range l.priorityOrder() {
		q := l.queues[pri]
		for len(q) > 0 {
			r := q[0]
			if l.available < r.left {
				// A part now, so that a request larger than the bucket
				// can hold (after a rate cut) is not starved.
				r.left -= l.available
				l.available = 0
				break
			}
			l.available -= r.left
			r.left = 0
			l.through[pri] += r.bytes
			q[0] = nil
			q = q[1:]
			r.granted = true
			signal(r)
		}
		l.queues[pri] = q
	}
}

// priorityOrder is the order one refill serves the queues in: User first;
// High second unless a one-in-fairness draw puts it last; Mid before Low
// unless another draw puts it after.
func (l *Limiter) priorityOrder() [Total]Priority {
	highLast := l.oneIn(l.fairness)
	midAfterLow := l.oneIn(l.fairness)
	lowMid := [2]Priority{Mid, Low}
	if midAfterLow {
		lowMid = [2]Priority{Low, Mid}
	}
	if highLast {
		return [Total]Priority{User, lowMid[0], lowMid[1], High}
	}
	return [Total]Priority{User, High, lowMid[0], lowMid[1]}
}

// oneIn is true with probability 1/n (xorshift32; the sequence is fixed,
// as the order does not need to be unpredictable).
func (l *Limiter) oneIn(n uint32) bool {
	x := l.rnd
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	l.rnd = x
	return x%n == 0
}
