package lsm

import (
	"runtime"
	"syscall"
	"testing"
)

// threadCPU returns the CPU time (user + system, ns) of the calling OS
// thread. A benchmark locked to its thread (runtime.LockOSThread) measures
// its own loop with it, without the other tenants of a shared machine that
// wall-clock ns/op mostly measures, and without background work.
func threadCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_THREAD, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// startThreadCPU locks the benchmark to its thread, resets the timer and
// returns a function that reports the loop's CPU time as cpu-ns/op.
func startThreadCPU(b *testing.B) func() {
	runtime.LockOSThread()
	b.ResetTimer()
	start := threadCPU()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(threadCPU()-start)/float64(b.N), "cpu-ns/op")
		}
		runtime.UnlockOSThread()
	}
}
