package sortedrun

import (
	"sync"
	"sync/atomic"
)

// Cache keeps the last Run built from a rep's entries together with the
// entry count it was built at, so the run is rebuilt only after new Adds:
// once a memtable is immutable its run is sorted once and then shared by
// every reader (RocksDB's VectorRep sorts a mutable vector's copy on every
// iterator and an immutable one once).
type Cache struct {
	mu   sync.Mutex // serializes builds
	last atomic.Pointer[cached]
}

type cached struct {
	run   Run
	count int64
}

// Get returns the cached run when it was built at count entries or more,
// else calls build with the cached run (nil at first) and caches the result
// as covering count entries. build must return a run of at least count
// entries. Concurrent callers share one build.
func (c *Cache) Get(count int64, build func(old Run) Run) Run {
	if l := c.last.Load(); l != nil && l.count >= count {
		return l.run
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var old Run
	if l := c.last.Load(); l != nil {
		if l.count >= count {
			return l.run
		}
		old = l.run
	}
	r := build(old)
	c.last.Store(&cached{run: r, count: count})
	return r
}

// Peek returns the cached run, nil when none was built.
func (c *Cache) Peek() Run {
	if l := c.last.Load(); l != nil {
		return l.run
	}
	return nil
}
