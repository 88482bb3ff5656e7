package ratelimit

import (
	"sync"
	"testing"
)

func TestGrantsHoldTheRate(t *testing.T) {
	clock := &VirtualClock{}
	l := New(Config{BytesPerSec: 1 << 20, RefillPeriodMicros: 100000, Clock: clock})
	burst := l.SingleBurstBytes()
	if want := int64(1<<20) / 10; burst != want {
		t.Fatalf("burst %d, want %d", burst, want)
	}
	// The first request refills at once; each later burst waits one
	// period: 10 bursts take 9 periods.
	for i := 0; i < 10; i++ {
		if got := l.RequestToken(burst, Low, Write); got != burst {
			t.Fatalf("request %d granted %d, want %d", i, got, burst)
		}
	}
	if got := clock.NowMicros(); got != 900000 {
		t.Fatalf("10 bursts at 10 bursts/s took %d us, want 900000", got)
	}
	if got := l.TotalBytesThrough(Low); got != 10*burst {
		t.Fatalf("bytes through %d, want %d", got, 10*burst)
	}
	if got := l.TotalBytesThrough(Total); got != 10*burst {
		t.Fatalf("total bytes through %d, want %d", got, 10*burst)
	}
}

func TestRequestLargerThanBurstIsSplit(t *testing.T) {
	clock := &VirtualClock{}
	l := New(Config{BytesPerSec: 1000, RefillPeriodMicros: 1000000, Clock: clock})
	if got := l.RequestToken(2500, High, Write); got != 1000 {
		t.Fatalf("RequestToken(2500) granted %d, want one burst, 1000", got)
	}
	l.Request(2500, High, Write)
	// 1000 at 0s, then 1000 at 1s, 2s and 500 at 3s.
	if got := clock.NowMicros(); got != 3000000 {
		t.Fatalf("3500 bytes at 1000 B/s ended at %d us, want 3000000", got)
	}
	if got, want := l.TotalRequests(High), int64(4); got != want {
		t.Fatalf("%d grants asked for, want %d", got, want)
	}
	if got := l.TotalBytesThrough(High); got != 3500 {
		t.Fatalf("bytes through %d, want 3500", got)
	}
}

func TestUnusedBytesCarryOverOnePeriod(t *testing.T) {
	clock := &VirtualClock{}
	l := New(Config{BytesPerSec: 1000, RefillPeriodMicros: 1000000, Clock: clock})
	l.Request(1, Low, Write) // refills: 999 left
	clock.Advance(5000000)   // idle periods add nothing by themselves
	l.Request(1000, Low, Write)
	// The refill adds a burst to the 999 held (999 < 1000): 1999, and the
	// request takes 1000 without waiting past the refill.
	if got := clock.NowMicros(); got != 5000000 {
		t.Fatalf("clock %d, want 5000000 (no wait)", got)
	}
	l.Request(999, Low, Write) // the 999 carried over
	if got := clock.NowMicros(); got != 5000000 {
		t.Fatalf("clock %d, want 5000000: the carried bytes were not there", got)
	}
	l.Request(1, Low, Write) // now empty: waits for the next refill
	if got := clock.NowMicros(); got != 6000000 {
		t.Fatalf("clock %d, want 6000000", got)
	}
}

func TestModeChoosesWhatIsLimited(t *testing.T) {
	for _, tc := range []struct {
		mode        Mode
		read, write bool
	}{{WritesOnly, false, true}, {ReadsOnly, true, false}, {AllIO, true, true}} {
		clock := &VirtualClock{}
		l := New(Config{BytesPerSec: 100, RefillPeriodMicros: 1000000, Mode: tc.mode, Clock: clock})
		l.Request(1000, Low, Read)
		l.Request(1000, Low, Write)
		l.Request(1000, Total, Write) // never limited
		want := int64(0)
		if tc.read {
			want += 1000
		}
		if tc.write {
			want += 1000
		}
		if got := l.TotalBytesThrough(Total); got != want {
			t.Errorf("mode %d: %d bytes through, want %d", tc.mode, got, want)
		}
		if l.Limits(Read) != tc.read || l.Limits(Write) != tc.write {
			t.Errorf("mode %d: Limits(Read)=%v Limits(Write)=%v", tc.mode, l.Limits(Read), l.Limits(Write))
		}
	}
}

func TestDrainsAreReported(t *testing.T) {
	clock := &VirtualClock{}
	drains := 0
	l := New(Config{BytesPerSec: 1000, RefillPeriodMicros: 1000000, Clock: clock, OnDrain: func() { drains++ }})
	l.Request(3000, Low, Write)
	if drains != 2 {
		t.Fatalf("%d drains, want 2 (the first burst needed no wait)", drains)
	}
}

func TestAutoTuneStartsAtHalfAndFollowsDrains(t *testing.T) {
	clock := &VirtualClock{}
	const ceiling = 20 << 20
	l := New(Config{BytesPerSec: ceiling, RefillPeriodMicros: 1000, AutoTuned: true, Clock: clock})
	if got := l.BytesPerSecond(); got != ceiling/2 {
		t.Fatalf("auto-tuned limiter starts at %d B/s, want %d", got, ceiling/2)
	}
	// Drained in every period: each tuning raises the rate by 5% until the
	// ceiling.
	prev := l.BytesPerSecond()
	for tunings := 0; prev < ceiling; {
		l.Request(l.SingleBurstBytes(), Low, Write)
		rate := l.BytesPerSecond()
		if rate == prev {
			continue
		}
		if want := min(int64(ceiling), prev*105/100); rate != want {
			t.Fatalf("tuning %d after drained periods: rate %d, want %d", tunings, rate, want)
		}
		if tunings++; tunings > 20 {
			t.Fatalf("rate %d after 20 drained tunings, want the ceiling %d", rate, ceiling)
		}
		prev = rate
	}
	// No drain for 100 periods: the floor, ceiling/20.
	clock.Advance(refillsPerTune * 1000)
	l.Request(1, Low, Write)
	if got := l.BytesPerSecond(); got != ceiling/allowedRangeFactor {
		t.Fatalf("rate %d after idle periods, want %d", got, ceiling/allowedRangeFactor)
	}
}

func TestPriorityOrderServesUserFirstAndHighMostly(t *testing.T) {
	l := New(Config{BytesPerSec: 1000, Fairness: 10, Clock: &VirtualClock{}})
	highSecond, highLast := 0, 0
	for i := 0; i < 10000; i++ {
		o := l.priorityOrder()
		if o[0] != User {
			t.Fatalf("order %v does not start with User", o)
		}
		seen := map[Priority]bool{}
		for _, p := range o {
			seen[p] = true
		}
		if len(seen) != int(Total) {
			t.Fatalf("order %v is not a permutation", o)
		}
		switch {
		case o[1] == High:
			highSecond++
		case o[3] == High:
			highLast++
		default:
			t.Fatalf("order %v puts High in the middle", o)
		}
	}
	// One in ten refills serves High last.
	if highLast < 700 || highLast > 1300 {
		t.Fatalf("High last in %d of 10000 orders, want about 1000", highLast)
	}
}

// TestQueuedRequestsAreGrantedByPriority queues a low and a user request
// behind a waiting one and lets one refill grant exactly one more burst:
// the user request must get it.
func TestQueuedRequestsAreGrantedByPriority(t *testing.T) {
	clock := &blockingClock{VirtualClock: VirtualClock{}, waiting: make(chan struct{}, 8)}
	l := New(Config{BytesPerSec: 1000, RefillPeriodMicros: 1000000, Clock: clock})
	l.Request(1000, Low, Write) // empties the bucket at time 0
	var wg sync.WaitGroup
	done := make(chan Priority, 3)
	start := func(p Priority) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Request(1000, p, Write)
			done <- p
		}()
	}
	start(Low)
	<-clock.waiting // the low request waits for the refill
	start(User)
	waitQueued(l, User)
	clock.release(1000000) // one refill: one burst
	if p := <-done; p != User {
		t.Fatalf("the refill granted %v first, want User (%v)", p, User)
	}
	<-clock.waiting
	clock.release(2000000)
	if p := <-done; p != Low {
		t.Fatalf("second grant went to %v, want Low", p)
	}
	wg.Wait()
}

// waitQueued spins until a request is queued at pri.
func waitQueued(l *Limiter, pri Priority) {
	for {
		l.mu.Lock()
		n := len(l.queues[pri])
		l.mu.Unlock()
		if n > 0 {
			return
		}
	}
}

// blockingClock's WaitUntil reports on waiting and blocks until the test
// releases it (or wake arrives).
type blockingClock struct {
	VirtualClock
	waiting chan struct{}
	mu      sync.Mutex
	cond    *sync.Cond
}

func (c *blockingClock) WaitUntil(t int64, wake <-chan struct{}) {
	c.waiting <- struct{}{}
	released := make(chan struct{})
	go func() {
		for c.now.Load() < t {
			c.lock()
			c.cond.Wait()
			c.mu.Unlock()
		}
		close(released)
	}()
	select {
	case <-released:
	case <-wake:
	}
}

func (c *blockingClock) lock() {
	c.mu.Lock()
	if c.cond == nil {
		c.cond = sync.NewCond(&c.mu)
	}
}

// release sets the clock to t and wakes the waiters.
func (c *blockingClock) release(t int64) {
	c.lock()
	c.now.Store(t)
	c.cond.Broadcast()
	c.mu.Unlock()
}

func TestConcurrentRequestsAllGranted(t *testing.T) {
	clock := &VirtualClock{}
	l := New(Config{BytesPerSec: 1 << 20, RefillPeriodMicros: 10000, Clock: clock})
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(pri Priority) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				l.Request(4096, pri, Write)
			}
		}(Priority(g % int(Total)))
	}
	wg.Wait()
	total := int64(8 * 50 * 4096)
	if got := l.TotalBytesThrough(Total); got != total {
		t.Fatalf("%d bytes through, want %d", got, total)
	}
	// The bucket holds at most two bursts, so the requests cannot have
	// passed faster than the rate allows after them.
	minMicros := (total - 2*l.SingleBurstBytes()) * 1000000 / (1 << 20)
	if got := clock.NowMicros(); got < minMicros {
		t.Fatalf("%d bytes passed in %d virtual us, the rate allows no less than %d", total, got, minMicros)
	}
}
