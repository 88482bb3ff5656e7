package dbbench

// Runs of operations. Where an engine offers it (engine.SizeGetter,
// engine.RunPutter, engine.SizeScanner), readrandom, the single-entry fills
// and readseq hand the engine a run of operations in one call instead of one
// call per operation. The keys and values are drawn exactly as the
// one-operation loops draw them, the engine performs the same single
// operations in the same order, and a run never crosses a progress-report
// or stats-interval boundary (Stats.runLimit), so the key stream, the counts
// and every output line are those of the one-operation loops; only the
// number of engine calls differs. Runs are used only where the loop counts
// and nothing is timed per operation (see the ...For functions).
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
