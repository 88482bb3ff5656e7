package skiplist

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// slab is one block handed out in pieces by a slabAllocator.
type slab[T any] struct {
	items []T
	used  atomic.Int64
}

// slabAllocator hands out pieces of large blocks so that an Add makes no Go
// allocation of its own: one atomic add on the current block per piece, and a
// mutex only when a block runs out (once per blockLen items). Blocks are
// ordinary Go memory, freed by the GC when the rep and every slice into it
// are gone.
type slabAllocator[T any] struct {
	cur       atomic.Pointer[slab[T]]
	mu        sync.Mutex
	blockLen  int
	allocated atomic.Uint64 // bytes of all blocks
}

func (a *slabAllocator[T]) alloc(n int) []T {
	for {
		s := a.cur.Load()
		if s != nil {
			end := s.used.Add(int64(n))
			if end <= int64(len(s.items)) {
				return s.items[end-int64(n) : end : end]
			}
		}
		if n > a.blockLen/4 {
			// Large pieces get their own block so they never waste the
			// rest of a shared one.
			var zero T
			a.allocated.Add(uint64(n) * uint64(unsafe.Sizeof(zero)))
			return make([]T, n)
		}
		a.refill(s)
	}
}

// refill installs a fresh block unless another goroutine already did.
func (a *slabAllocator[T]) refill(old *slab[T]) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cur.Load() != old {
		return
	}
	var zero T
	a.allocated.Add(uint64(a.blockLen) * uint64(unsafe.Sizeof(zero)))
	a.cur.Store(&slab[T]{items: make([]T, a.blockLen)})
}
