package dbbench

import (
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/godbbench/godbbench/internal/clock"
)

// TestYielderInterval checks that check yields (moving its clock) only once
// yieldBy has passed since the last yield.
func TestYielderInterval(t *testing.T) {
	now := clock.Nanos()
	y := yielder{last: now, lastCheck: now}
	y.check(yieldCheckEvery)
	if y.last != now {
		t.Fatalf("yielded %v after the last yield, interval %v", time.Duration(y.last-now), yieldBy)
	}
	y.last = clock.Nanos() - int64(yieldBy)
	before := y.last
	y.check(2 * yieldCheckEvery)
	if y.last == before {
		t.Fatal("did not yield after the interval passed")
	}
}

// TestYielderCountsFromTheResume: the interval to the next yield, and the
// slow-operation clock, start when the thread resumes, not when it yields:
// with more threads than cores a yield can wait a time slice, and counted
// from the yield the thread would yield again a check later.
func TestYielderCountsFromTheResume(t *testing.T) {
	const wait = 3 * time.Millisecond
	defer func(f func()) { gosched = f }(gosched)
	gosched = func() { time.Sleep(wait) }
	start := clock.Nanos()
	y := yielder{last: start - int64(yieldBy), lastCheck: start}
	if y.check(yieldCheckEvery) {
		t.Fatal("fast operations: asked for a check on every operation")
	}
	resumed := start + int64(wait)
	if y.last < resumed || y.lastCheck < resumed {
		t.Fatalf("after a yield that waited %v: interval counted from %v, operations timed from %v after the call",
			wait, time.Duration(y.last-start), time.Duration(y.lastCheck-start))
	}
	if y.check(2 * yieldCheckEvery) {
		t.Fatal("the wait of the yield was taken for slow operations")
	}
}

// TestYielderYieldsAtTheLastCheckBeforeYieldBy: a check yields when the
// next check, a stride like the last one away, would come after yieldBy,
// and not when it would still come before. While operations are slow the
// next check is one operation away.
func TestYielderYieldsAtTheLastCheckBeforeYieldBy(t *testing.T) {
	defer func(f func()) { gosched = f }(gosched)
	yields := 0
	gosched = func() { yields++ }
	const stride = slowStride / 2
	for _, c := range []struct {
		name    string
		ops     int64         // operations since the last check
		stride  time.Duration // since the last check
		sinceIt time.Duration // since the last resume, at the check
		want    int
	}{
		{"fast, next check past yieldBy", yieldCheckEvery, stride, yieldBy - stride + time.Microsecond, 1},
		{"fast, next check before yieldBy", yieldCheckEvery, stride, yieldBy - stride - time.Microsecond, 0},
		{"slow, next operation past yieldBy", yieldCheckEvery, 2 * slowStride, yieldBy - 2*slowStride/yieldCheckEvery + time.Microsecond, 1},
		{"slow, next operation before yieldBy", yieldCheckEvery, 2 * slowStride, yieldBy - 2*slowStride/yieldCheckEvery - time.Microsecond, 0},
		{"one operation a check", 1, 50 * time.Microsecond, yieldBy - 49*time.Microsecond, 1},
	} {
		yields = 0
		const now = int64(time.Hour)
		y := yielder{last: now - int64(c.sinceIt), lastCheck: now - int64(c.stride), lastDone: 1000}
		y.checkAt(now, 1000+c.ops)
		if yields != c.want {
			t.Errorf("%s: %d yields, want %d", c.name, yields, c.want)
		}
	}
}

// TestYielderSlowOperations checks that check asks for a clock read on every
// operation once yieldCheckEvery operations take more than slowStride,
// and goes back to every yieldCheckEvery when they are fast.
func TestYielderSlowOperations(t *testing.T) {
	now := clock.Nanos()
	y := yielder{last: now, lastCheck: now, lastDone: 0}
	if y.check(yieldCheckEvery) {
		t.Fatal("fast operations: asked for a check on every operation")
	}
	y.lastCheck = clock.Nanos() - int64(yieldBy/2)
	if !y.check(2 * yieldCheckEvery) {
		t.Fatalf("%d operations in %v: did not ask for a check on every operation", yieldCheckEvery, yieldBy/2)
	}
	y.lastCheck = clock.Nanos()
	if y.check(2*yieldCheckEvery + 64) {
		t.Fatal("fast again: still asks for a check on every operation")
	}
}

// TestStatsChecksSlowOperationsEveryTime checks the wiring: once the
// yielder reports slow operations, finishedOps takes its slow path on every
// operation, and returns to every yieldCheckEvery-th when they are fast.
func TestStatsChecksSlowOperationsEveryTime(t *testing.T) {
	s := Stats{nextRpt: math.MaxInt64} // no progress lines
	s.slowMask = yieldCheckEvery - 1
	now := clock.Nanos()
	s.yield = yielder{last: now, lastCheck: now - int64(yieldBy)}
	for range yieldCheckEvery {
		s.finishedOps(1, opRead)
	}
	if s.slowMask != 0 {
		t.Fatalf("slowMask %d after slow operations, want 0", s.slowMask)
	}
	// A fast run right after: so many operations that no pause of the
	// test's goroutine between the two checks makes them look slow.
	s.finishedOps(yieldCheckEvery<<20, opRead)
	if s.slowMask != yieldCheckEvery-1 {
		t.Fatalf("slowMask %d after fast operations, want %d", s.slowMask, yieldCheckEvery-1)
	}
}

// TestStatsHistogramChecksEveryOperation: with latency histograms the
// clock is read after every operation anyway, so every operation's
// reading goes to the yield check, not only every yieldCheckEvery-th.
func TestStatsHistogramChecksEveryOperation(t *testing.T) {
	s := Stats{nextRpt: math.MaxInt64, histClock: true}
	now := clock.Nanos()
	s.yield = yielder{last: now, lastCheck: now}
	for range 3 {
		s.done++
		s.lastOpNs = clock.Nanos()
		s.afterOps()
		if s.yield.lastDone != s.done || s.yield.lastCheck != s.lastOpNs {
			t.Fatalf("operation %d: last check at operation %d, clock %d; want the operation's end %d",
				s.done, s.yield.lastDone, s.yield.lastCheck, s.lastOpNs)
		}
	}
}

// BenchmarkYield measures one yield of a benchmark thread: Gosched from a
// goroutine locked to its OS thread (the driver's case) and from an
// unlocked one. Between yields the goroutine spins for a millisecond, as a
// benchmark thread works, so the other threads are asleep when it yields.
// yield.go's figures come from
// `go test -run XXX -bench Yield -benchtime 300x -count 3 ./dbbench/`.
func BenchmarkYield(b *testing.B) {
	for _, locked := range []bool{true, false} {
		name := "unlocked"
		if locked {
			name = "locked"
		}
		b.Run(name, func(b *testing.B) {
			done := make(chan time.Duration)
			go func() {
				if locked {
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
				}
				var inYield time.Duration
				for i := 0; i < b.N; i++ {
					for start := time.Now(); time.Since(start) < time.Millisecond; {
					}
					t0 := time.Now()
					runtime.Gosched()
					inYield += time.Since(t0)
				}
				done <- inYield
			}()
			b.ReportMetric(float64((<-done).Nanoseconds())/float64(b.N), "yield-ns/op")
		})
	}
}

// TestBatchedReadsCheckEvery64 checks that with --batch_size > 1 (slowMask
// 0, every call takes the slow path) single fast reads still read the yield
// clock only once per yieldCheckEvery operations, not on every call.
func TestBatchedReadsCheckEvery64(t *testing.T) {
	s := Stats{nextRpt: math.MaxInt64, batched: true}
	now := clock.Nanos()
	s.yield = yielder{last: now, lastCheck: now}
	for range yieldCheckEvery - 1 {
		s.finishedOps(1, opRead)
	}
	if s.yield.lastDone != 0 {
		t.Fatalf("clock read at operation %d of %d", s.yield.lastDone, yieldCheckEvery-1)
	}
	s.finishedOps(1, opRead)
	if s.yield.lastDone != yieldCheckEvery {
		t.Fatalf("no clock read at operation %d", yieldCheckEvery)
	}
}
