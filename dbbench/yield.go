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
// hands the P to another thread and back: two context switches, ~10-20 µs,
// once every yieldEvery. How often does not show in the timings: RocksDB
// readseq over 8 scans ran at the same speed yielding every 4 ms and every
// 8 ms (1,650 and 1,000 context switches). The clock is read about once
// every 64 operations (~25 ns, so ~0.4 ns an operation).
const (
	yieldEvery      = 4 * time.Millisecond // well under sysmon's 10 ms
	yieldCheckEvery = 64                   // operations between clock reads; a power of two
)

// yielder calls runtime.Gosched when yieldEvery has passed since the last
// yield. Its owner calls check about every yieldCheckEvery operations
// (Stats.finishedOps, kept inlinable).
type yielder struct {
	last int64 // UnixNano of the last yield
}

func (y *yielder) check() {
	now := time.Now().UnixNano()
	if now-y.last < int64(yieldEvery) {
		return
	}
	y.last = now
	runtime.Gosched()
}
