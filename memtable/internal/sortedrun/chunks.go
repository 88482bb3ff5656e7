package sortedrun

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Chunks hands out slices of T carved from chunks of a fixed number of
// elements: one atomic add per allocation, a mutex once per chunk, so many
// goroutines may allocate at once. A request of more than a quarter of a
// chunk gets an array of its own. Chunks live as long as a slice of them
// does; nothing is ever freed or reused.
type Chunks[T any] struct {
	// ChunkLen is the number of elements of a chunk; set it before the
	// first Alloc.
	ChunkLen  int
	cur       atomic.Pointer[chunk[T]]
	mu        sync.Mutex // serializes refills
	allocated atomic.Int64
}

type chunk[T any] struct {
	buf  []T
	used atomic.Int64
}

// Alloc returns n zeroed elements.
func (c *Chunks[T]) Alloc(n int) []T {
	for {
		ch := c.cur.Load()
		if ch != nil {
			end := ch.used.Add(int64(n))
			if end <= int64(len(ch.buf)) {
				return ch.buf[end-int64(n) : end : end]
			}
		}
		if n > c.ChunkLen/4 {
			c.allocated.Add(int64(n))
			return make([]T, n)
		}
		c.refill(ch)
	}
}

// refill installs a new chunk unless another goroutine replaced old first.
func (c *Chunks[T]) refill(old *chunk[T]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cur.Load() != old {
		return
	}
	c.allocated.Add(int64(c.ChunkLen))
	c.cur.Store(&chunk[T]{buf: make([]T, c.ChunkLen)})
}

// Bytes is the memory of every chunk and own array handed out so far.
func (c *Chunks[T]) Bytes() uint64 {
	var zero T
	return uint64(c.allocated.Load()) * uint64(unsafe.Sizeof(zero))
}
