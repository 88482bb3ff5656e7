// Package clock is the monotonic clock db_bench's per-operation latencies
// are read from: nanoseconds since the process started, cheap enough to
// read after every operation.
//
// Why: with --histogram db_bench reads its clock after every operation.
// time.Now costs about 55 ns in this project's 2-vCPU KVM machine (it reads
// the wall and the monotonic clock, each a vDSO call through kvm-clock) and
// time.Since about 29 ns; a readseq entry of the native engine costs about
// 140 ns of CPU at 8 threads, so the clock was a fifth of it. On amd64 with
// an invariant TSC (CPUID 0x80000007 EDX bit 8: the counter ticks at a
// constant rate through frequency and power states) Nanos reads the time
// stamp counter (about 11 ns) and scales it by the rate Calibrate measured
// against the monotonic clock; elsewhere it is time.Since. On Linux the
// kernel's clock source must also be built on the counter ("tsc", or
// "kvm-clock" in a KVM guest): a kernel that found the counters out of
// step across CPUs has moved to another source.
//
// Contract: Nanos never decreases on one goroutine between two calls on
// the same CPU, and agrees with the monotonic clock's rate within the
// calibration's error (a few parts per million over Calibrate's 10 ms).
// Differences between two reads on different CPUs can be off by the
// CPUs' counter skew, which the kernel keeps within its sync checks;
// latencies clamp negative differences to zero. Call Calibrate once before
// reading latencies: until it returns, Nanos is time.Since, and the two
// differ by the calibration's error, so values read before and after it
// should not be subtracted.
//
// A Stopwatch (stopwatch.go) times a run of events, a scan's entries, from
// one start on the same clock at less cost a reading: it reads the bare
// counter and converts the run's readings to nanoseconds once, at the end.
// The rocksdb engine's C scan loop reads the same counter when the
// Stopwatch says it ticks, so every engine's scans are timed alike.
package clock
