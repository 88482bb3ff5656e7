package dbbench

import (
	"sync"
	"testing"
	"time"
)

// TestRateLimiterQuota checks the refill arithmetic without timing: the
// first request is served from the first period's quota, quota carries
// over only below one period's worth, and a request larger than the quota
// takes what there is and waits for the next refill.
func TestRateLimiterQuota(t *testing.T) {
	l := newRateLimiter(1000) // 100 units a period
	l.request(60)
	if l.available != 40 {
		t.Fatalf("after 60 of the first 100: %g left", l.available)
	}
	// Force a refill: 40 left is below a period's worth, so it grows by 100.
	l.nextRefill = time.Now().Add(-time.Millisecond)
	l.request(10)
	if l.available != 130 {
		t.Fatalf("carried-over quota: %g, want 130", l.available)
	}
	l.nextRefill = time.Now().Add(-time.Millisecond)
	l.request(0)
	if l.available != 130 {
		t.Fatalf("quota above a period's worth grew to %g", l.available)
	}
	// 130 available, 150 wanted: the request takes 130 and waits one
	// refill (100 ms) for the remaining 20.
	l.nextRefill = time.Now().Add(10 * time.Millisecond)
	l.request(150)
	if l.available != 80 {
		t.Fatalf("after a request past the quota: %g left, want 80", l.available)
	}
}

// TestRateLimiterConcurrent runs requests from several goroutines under
// -race: every one is served, and the quota never goes negative.
func TestRateLimiterConcurrent(t *testing.T) {
	l := newRateLimiter(1e6)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				l.request(100)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		l.setRate(2e6)
	}()
	wg.Wait()
	if l.available < 0 {
		t.Fatalf("quota went negative: %g", l.available)
	}
}
