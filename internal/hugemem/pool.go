package hugemem

import "sync"

// Pool keeps released regions for reuse, so that their pages, already
// resident, are not faulted in again by the next owner (the first touch of
// a fresh 2 MiB huge page is the kernel zeroing it, on the toucher's path).
// A region comes back zeroed: Put clears the part its owner used. Pool is
// safe for concurrent use; its zero value keeps nothing, so set Max.
type Pool struct {
	// Max bounds the regions kept, and so the resident memory they hold
	// beyond their owners'.
	Max int

	mu   sync.Mutex
	free []*Region // oldest first
}

// Get returns a kept region of exactly n usable bytes, zeroed, or nil.
func (p *Pool) Get(n int) *Region {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.free) - 1; i >= 0; i-- {
		if r := p.free[i]; len(r.Bytes) == n {
			p.free = append(p.free[:i], p.free[i+1:]...)
			return r
		}
	}
	return nil
}

// Put zeroes the first used bytes of r (its owner never touched the rest)
// and keeps it, freeing the oldest region kept when the pool is full. r
// must not be used by its former owner afterwards.
func (p *Pool) Put(r *Region, used int) {
	clear(r.Bytes[:min(max(used, 0), len(r.Bytes))])
	p.mu.Lock()
	var evicted *Region
	if len(p.free) >= p.Max {
		if len(p.free) == 0 {
			evicted = r
		} else {
			evicted = p.free[0]
			p.free = append(p.free[:0], p.free[1:]...)
		}
	}
	if evicted != r {
		p.free = append(p.free, r)
	}
	p.mu.Unlock()
	if evicted != nil {
		_ = evicted.Free()
	}
}

// Len is the number of regions kept.
func (p *Pool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.free)
}
