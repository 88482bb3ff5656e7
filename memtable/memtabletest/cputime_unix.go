//go:build unix

package memtabletest

import "syscall"

// processCPU is the user+system CPU time of the whole process in
// nanoseconds, collector included. On a loaded machine it is a steadier
// measure of work than wall time.
func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
