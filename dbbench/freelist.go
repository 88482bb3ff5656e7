package dbbench

import "sync"

// freeList recycles values of T that are made often and dropped soon
// (the tracing wrapper's iterators and lookups), so that making one
// allocates nothing once the list holds enough. A sync.Pool would not do:
// the collector empties it, and the benchmarks that make these values
// allocate enough elsewhere to make collections frequent. Its methods
// are safe for concurrent use.
type freeList[T any] struct {
	mu   sync.Mutex
	free []*T
}

// get returns a recycled value, or nil when the list is empty.
func (l *freeList[T]) get() *T {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.free)
	if n == 0 {
		return nil
	}
	v := l.free[n-1]
	l.free = l.free[:n-1]
	return v
}

// put gives v back for a later get; the caller must not use it after.
func (l *freeList[T]) put(v *T) {
	l.mu.Lock()
	l.free = append(l.free, v)
	l.mu.Unlock()
}
