package dbbench

// Runs of operations. readrandom, the single-entry fills and readseq hand
// the engine a run of operations at a time through engine.Runs: one call
// for a run where the engine has its own runs (engine.Runner), a loop of
// single calls otherwise. The keys and values are drawn exactly as one
// operation at a time would draw them, the engine performs the same single
// operations in the same order, and a run never crosses a progress-report
// or stats-interval boundary (Stats.runLimit), a rate-limiter request or a
// --duration clock check (duration.runLimit), so the key stream, the
// counts and every output line are those of one call an operation; only
// the number of engine calls differs. With per-operation latencies
// (--histogram, --report_interval_seconds) the runs are timed.
//
// Why runs, and why long ones. The rocksdb engine crosses into C for every
// call, and a benchmark goroutine is locked to its OS thread (runner.go).
// Each crossing costs more than its CPU samples show, but the larger cost
// is the Go scheduler: a goroutine that has not passed through the
// scheduler for 10 ms is preempted by sysmon, and a locked goroutine that
// yields or is preempted sleeps while its P goes to another thread and
// back (two cross-CPU wake-ups, yield.go). With calls shorter than 10 ms
// that happens about every 8 ms whatever the run length; with a call longer
// than 10 ms, sysmon takes the P of the thread inside C without waking it,
// and the thread passes through the scheduler once per call.
// scripts/ab_variants.sh (RocksDB readrandom, 500,000 reads on a settled
// 1M-key DB, 8 rounds, each binary against C++ db_bench in the same round,
// medians of the per-round ratios):
//
//	runs of 64 (~0.6 ms a call)      0.949
//	runs of 1,024 (~10 ms)           0.978
//	runs of 16,384 (~170 ms)         1.017
//
// readseq (1M entries, 10 rounds): runs of 128 0.954, of 16,384 0.988. A
// scratch build that looked all 500,000 keys up in one call ran at 0.992
// (10 rounds); one Get a call had run at 0.93-0.94.
//
// So a run is up to maxRunOps operations, and its buffers (keys, values)
// stay within runBufBytes: 16,384 keys of db_bench's 16 bytes are 256 KiB.
const (
	maxRunOps   = 16384
	minRunOps   = 64
	runBufBytes = 1 << 20
)

// runOps is the run length for operations that each put entryBytes bytes
// in a run's buffer: maxRunOps, fewer for large entries (not below
// minRunOps, whose buffer a run may then exceed).
func runOps(entryBytes int) int {
	if entryBytes <= 0 {
		return maxRunOps
	}
	return min(maxRunOps, max(minRunOps, runBufBytes/entryBytes))
}

// maxRun is the longest run of operations that each put entryBytes bytes
// in a run's buffer. A run that goes to the engine in one call (oneCall)
// holds up to runOps(entryBytes). Runs through engine.Runs' loops of single
// calls gain nothing from length, so they end where the stats read the
// yield clock with one call an operation (yield.go): every
// yieldCheckEvery operations (Stats.runCap).
func maxRun(oneCall bool, entryBytes int) int {
	if oneCall {
		return runOps(entryBytes)
	}
	return yieldCheckEvery
}

// runCap is the most operations the thread's next run may hold: maxRun,
// and through loops of single calls no more than up to the next multiple
// of yieldCheckEvery operations, or one while operations are slow (the
// stats then read the yield clock after every one).
func (s *Stats) runCap(oneCall bool, entryBytes int) int64 {
	switch {
	case oneCall:
		return int64(runOps(entryBytes))
	case s.yieldEveryOp:
		return 1
	}
	return yieldCheckEvery - s.done%yieldCheckEvery
}

// opsUntil is the number of operations, at least 1, after which a count
// now at done next leaves the remainder at modulo every: the run length
// that ends on a rate-limiter request made at those counts.
func opsUntil(done, every, at int64) int64 {
	if k := ((at-done)%every + every) % every; k > 0 {
		return k
	}
	return every
}

// runTimes is the first n of a run's completion times, nil for an untimed
// run.
func runTimes(doneNs []int64, n int) []int64 {
	if doneNs == nil {
		return nil
	}
	return doneNs[:n]
}
