package dbbench

import (
	"runtime"
	"time"
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
// sysmon acts on a scheduling tick older than 10 ms, so the clock must be
// read often enough to yield before that: every yieldCheckEvery operations
// (about 0.4 ns an operation at ~25 ns a clock read) while operations are
// fast, and on every operation once yieldCheckEvery of them take more than
// a quarter of yieldEvery (slow reads from disk, synced writes). An
// operation that alone runs past 10 ms lets sysmon take the P once, and the
// check after it yields.
const (
	yieldEvery      = 8 * time.Millisecond // under sysmon's 10 ms, with room for a check stride
	yieldCheckEvery = 64                   // operations between clock reads; a power of two
)

// yielder calls runtime.Gosched when yieldEvery has passed since the
// thread last resumed from a yield. Its owner calls check about every
// yieldCheckEvery operations, or on every operation while check asks for
// that (Stats.finishedOps, kept inlinable).
type yielder struct {
	last      int64 // UnixNano of the resume from the last yield
	lastCheck int64 // UnixNano of the last check
	lastDone  int64 // the owner's operation count at the last check
}

// check yields when it is time, and reports whether operations are slow
// enough that the clock should be read on every one: done is the owner's
// count of operations so far.
func (y *yielder) check(done int64) (everyOp bool) {
	now := time.Now().UnixNano()
	ops, elapsed := done-y.lastDone, now-y.lastCheck
	y.lastDone, y.lastCheck = done, now
	everyOp = ops <= 0 || elapsed*4*yieldCheckEvery > ops*int64(yieldEvery)
	if now-y.last >= int64(yieldEvery) {
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
		now = time.Now().UnixNano()
		y.last, y.lastCheck = now, now
	}
	return everyOp
}

// gosched is runtime.Gosched; tests replace it.
var gosched = runtime.Gosched
