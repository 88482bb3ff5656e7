package hugemem

import (
	"sync"
	"time"
)

// DefaultMaxIdle is the memtable pools' MaxIdle: longer than the time
// between two memtable switches of any write-heavy benchmark here (a 64 MiB
// memtable fills in under a second at 100 MB/s), short next to a read phase.
// Measured on the ToplingDB-shape fillseq pass (5M keys, cspp): 112 MB of
// huge pages stayed resident through readseq and readrandom; with expiry
// they fall to 56 MB (the active memtable's region) two seconds after the
// writes stop, and RSS in readrandom from 498 to 442 MB. The pass's peak,
// reached in its first scans right after the writes, does not move
// (507-511 MB both ways).
const DefaultMaxIdle = 2 * time.Second

// Pool keeps released regions for reuse, so that their pages, already
// resident, are not faulted in again by the next owner (the first touch of
// a fresh 2 MiB huge page is the kernel zeroing it, on the toucher's path).
// A region comes back zeroed: Put clears the part its owner used. Pool is
// safe for concurrent use; its zero value keeps nothing, so set Max.
type Pool struct {
	// Max bounds the regions kept, and so the resident memory they hold
	// beyond their owners'.
	Max int
	// MaxIdle, when positive, frees a region kept longer than that: the
	// pool is for the next memtable of a write-heavy run, and once writes
	// stop (a benchmark's read phase) its regions are only resident memory
	// nobody uses. A goroutine checks every MaxIdle/2 while regions are kept.
	MaxIdle time.Duration

	mu         sync.Mutex
	free       []*Region   // oldest first
	since      []time.Time // when each of free was put
	janitor    bool        // the expiry goroutine is running
	registered bool        // in allPools, for ReleaseKept
}

// allPools lists every Pool that has kept a region, for ReleaseKept.
var allPools struct {
	mu    sync.Mutex
	pools []*Pool
}

// ReleaseKept frees the regions every pool keeps, now rather than after
// MaxIdle: for a caller that knows the writes have stopped (a database
// after a manual compaction), the kept regions are only resident memory.
// It returns how many regions it freed.
func ReleaseKept() int {
	allPools.mu.Lock()
	pools := allPools.pools
	allPools.mu.Unlock()
	n := 0
	for _, p := range pools {
		p.mu.Lock()
		for _, r := range p.free {
			_ = r.Free()
		}
		n += len(p.free)
		clear(p.free)
		p.free, p.since = p.free[:0], p.since[:0]
		p.mu.Unlock()
	}
	return n
}

// Get returns a kept region of exactly n usable bytes, zeroed, or nil.
func (p *Pool) Get(n int) *Region {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.free) - 1; i >= 0; i-- {
		if r := p.free[i]; len(r.Bytes) == n {
			p.free = append(p.free[:i], p.free[i+1:]...)
			p.since = append(p.since[:i], p.since[i+1:]...)
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
			p.since = append(p.since[:0], p.since[1:]...)
		}
	}
	if evicted != r {
		if !p.registered {
			p.registered = true
			allPools.mu.Lock()
			allPools.pools = append(allPools.pools, p)
			allPools.mu.Unlock()
		}
		p.free = append(p.free, r)
		p.since = append(p.since, time.Now())
		if p.MaxIdle > 0 && !p.janitor {
			p.janitor = true
			go p.expire()
		}
	}
	p.mu.Unlock()
	if evicted != nil {
		_ = evicted.Free()
	}
}

// Recycle hands over a released owner's regions: those of exactly size
// usable bytes are Put, cleared in full (their owner's use is not known
// region by region), and the others, which no Get of size could take, are
// freed.
func (p *Pool) Recycle(rs []*Region, size int) {
	for _, r := range rs {
		if len(r.Bytes) == size {
			p.Put(r, size)
		} else {
			_ = r.Free()
		}
	}
}

// expire frees the regions kept longer than MaxIdle, every MaxIdle/2,
// until the pool is empty.
func (p *Pool) expire() {
	for {
		time.Sleep(p.MaxIdle / 2)
		p.mu.Lock()
		cut := time.Now().Add(-p.MaxIdle)
		n := 0
		for n < len(p.since) && p.since[n].Before(cut) {
			_ = p.free[n].Free() // under the lock: a region Len no longer counts is gone
			n++
		}
		p.free = append(p.free[:0], p.free[n:]...)
		p.since = append(p.since[:0], p.since[n:]...)
		done := len(p.free) == 0
		if done {
			p.janitor = false
		}
		p.mu.Unlock()
		if done {
			return
		}
	}
}

// Len is the number of regions kept.
func (p *Pool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.free)
}
