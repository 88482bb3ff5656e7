package engine

// ThreadLocking is an engine's policy for locking benchmark goroutines to
// OS threads.
type ThreadLocking uint8

const (
	// LockAlways locks every benchmark goroutine (the zero value; what
	// cgo engines need, see dbbench's runner).
	LockAlways ThreadLocking = iota
	// LockNever leaves them free to move between OS threads: for an
	// engine whose writes wait for its own goroutines (Pebble's commit
	// waits for its WAL writer), since a locked goroutine that waits puts
	// its OS thread to sleep and is woken by another (a futex wait and
	// wake, a cross-CPU wake-up), which costs more than the write.
	LockNever
	// LockUpToProcs locks them while a benchmark runs at most GOMAXPROCS
	// threads: locked goroutines beyond the Ps make every switch between
	// benchmark threads a hand-off between OS threads (a futex wake and a
	// sleep), while at or under the Ps a thread of its own each suits an
	// engine whose writers take turns (native).
	LockUpToProcs
)

// Locks reports whether a benchmark of threads goroutines on procs Ps
// locks each to an OS thread.
func (l ThreadLocking) Locks(threads, procs int) bool {
	switch l {
	case LockNever:
		return false
	case LockUpToProcs:
		return threads <= procs
	}
	return true
}
