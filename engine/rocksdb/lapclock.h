// The clocks that time runs inside a cgo call, shared by the C shims
// (shim.h) and the C++ bridge (bridge.cc) so that every timed run of the
// rocksdb engine reads the clock the Go engines read.
#ifndef GODBBENCH_ROCKSDB_LAPCLOCK_H
#define GODBBENCH_ROCKSDB_LAPCLOCK_H

#include <stdint.h>
#include <time.h>

// gdb_now_ns reads CLOCK_MONOTONIC in nanoseconds.
static inline int64_t gdb_now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

// gdb_lap_now reads the clock of a Go clock.Stopwatch: the time stamp
// counter when ticking (only ever set on x86-64, where Go reads the same
// counter), else CLOCK_MONOTONIC in nanoseconds. The caller hands the
// differences back to Go, whose Stopwatch.ToNanos converts them once.
static inline int64_t gdb_lap_now(int ticking) {
#if defined(__x86_64__)
	if (ticking) {
		return (int64_t)__builtin_ia32_rdtsc();
	}
#endif
	(void)ticking;
	return gdb_now_ns();
}

#endif
