package dbbench

import (
	"runtime"
	"time"

	"github.com/godbbench/godbbench/internal/clock"
)

// Yielding to the scheduler. A benchmark thread runs one goroutine that
// never blocks, and with the rocksdb engine it spends most of its time inside
// cgo calls. The Go scheduler's monitor (sysmon) preempts a goroutine that has
// run for 10 ms without passing through the scheduler; when the goroutine is
// in a cgo call at that moment the monitor cannot preempt it, so it takes the
// goroutine's P away and hands it to another thread, which finds nothing to
// do and sleeps again. A cgo return does not pass through the scheduler
// either, so the condition holds at every monitor tick (20 µs apart) from
// then on: measured on readrandom with RocksDB (300,000 cache-missing reads),
// 32,812 context switches against C++ db_bench's 275, 0.5 s more system
// time, 11.3 vs 9.1 µs/op. Passing through the scheduler every few
// milliseconds resets the monitor's clock: the same run then had 7,244
// context switches and matched C++ (11.9 vs 12.0 µs/op).
//
// The goroutine is locked to its OS thread (see runner.go), so a yield
// hands the P to another thread and back, and the benchmark thread sleeps
// through two cross-CPU wake-ups (each an inter-processor interrupt, a VM
// exit here). BenchmarkYield: 27-95 µs a yield for a locked goroutine in this
// 2-vCPU VM (71-95 in 4 of 5 runs), against 16-22 µs for an unlocked one. Every 4 ms that is ~2% of
// the thread's time, every 8 ms ~1%. In RocksDB readrandom (200,000 reads,
// 14 alternated rounds against C++ db_bench) yielding every 9 ms instead of
// 4 ms gave +1.4% at the median of the per-round ratios (0.950 against
// 0.942 of C++); the kernel counted ~1,900 function-call interrupts per
// 300,000 reads for our process against ~110 for C++ db_bench, about two
// per yield. Unlocking around the yield (16 rounds: 0.924 both ways) did
// not show in the timings, and would let RocksDB's per-thread perf context
// move to another thread, so the lock stays. The way around these trips
// is fewer of them: runs of operations longer than 10 ms in one engine call
// (runs.go), during which sysmon takes the P without waking the thread, so
// the thread passes through the scheduler once a run.
//
// sysmon preempts a goroutine whose P has run it for 10 ms, counted from
// when sysmon saw it scheduled, so never earlier than 10 ms after the
// resume. A slice that ends early costs waits: with more threads than
// cores each yield waits for the other threads' slices, and the operation
// that follows carries that wait in its latency, so the share of
// operations that carry one is one over the operations of a slice.
// readrandomwriterandom at 8 threads on 2 cores (10M keys) has about 1,000
// operations a slice and 0.1% of its reads waiting 7-33 ms, so its P99.9
// sits on that edge; yielding at the first check after 8 ms, slices
// averaged about 8.25 ms. A slice that runs into sysmon ends wherever the
// goroutine is, perhaps holding a lock the other threads then wait for,
// and for a thread inside C it costs the wake-ups above. So the yield
// comes at the last check that can still come before yieldBy: the check
// yields when the next one, a stride like the last away, would be past it.
//
// The clock is read every yieldCheckEvery operations (about 0.4 ns an
// operation at ~25 ns a read) while a stride of them takes at most
// slowStride, and on every operation otherwise (slow reads from disk,
// synced writes), so a slice ends between yieldBy less a stride and
// yieldBy. With latency histograms the stats read the clock after every
// operation anyway, and pass that reading (checkAt): the slice then ends
// within one operation of yieldBy. An operation that alone runs past
// 10 ms lets sysmon take the P once, and the check after it yields.
const (
	yieldBy         = 9500 * time.Microsecond // under sysmon's 10 ms by a margin for the clock and the last operation
	slowStride      = yieldBy / 8             // a longer stride of yieldCheckEvery operations reads the clock every operation
	yieldCheckEvery = 64                      // operations between clock reads; a power of two
)

// yielder calls runtime.Gosched when the next check would come after
// yieldBy since the thread last resumed from a yield. Its owner calls check
// about every yieldCheckEvery operations, or on every operation while check
// asks for that (Stats.finishedOps, kept inlinable).
type yielder struct {
	last      int64 // clock.Nanos of the resume from the last yield
	lastCheck int64 // clock.Nanos of the last check
	lastDone  int64 // the owner's operation count at the last check
}

// check yields when it is time, and reports whether operations are slow
// enough that the clock should be read on every one: done is the owner's
// count of operations so far.
func (y *yielder) check(done int64) (everyOp bool) {
	return y.checkAt(clock.Nanos(), done)
}

// checkAt is check with the clock read by the caller: now is clock.Nanos.
func (y *yielder) checkAt(now, done int64) (everyOp bool) {
	ops, stride := done-y.lastDone, now-y.lastCheck
	y.lastDone, y.lastCheck = done, now
	everyOp = ops <= 0 || stride*yieldCheckEvery > ops*int64(slowStride)
	next := stride // the time to the next check, if like the last stride
	if everyOp && ops > 1 {
		next = stride / ops
	}
	if now-y.last+next >= int64(yieldBy) {
		gosched()
		// Count from the resume, not the yield: sysmon's clock restarts
		// when the goroutine is scheduled again, and with more threads
		// than cores the yield itself waits for other threads' slices.
		// Counted from the yield, a thread that waited that long yielded
		// again at its next check (64 operations later), so more
		// operations paid a wait for a P: readrandomwriterandom at 8
		// threads on 2 cores (1M keys) had 0.13% of its reads at 6.6-9.9
		// ms, its P99.9 7.1-7.6 ms; counted from the resume, 0.06% wait
		// 10-33 ms and P99.9 is 0.9-1.0 ms. Nor is the wait the
		// operations' time (lastCheck).
		now = clock.Nanos()
		y.last, y.lastCheck = now, now
	}
	return everyOp
}

// gosched is runtime.Gosched; tests replace it.
var gosched = runtime.Gosched
