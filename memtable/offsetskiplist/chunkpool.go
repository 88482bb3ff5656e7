package offsetskiplist

import (
	"sync"

	"github.com/godbbench/godbbench/internal/hugemem"
)

// Reusing chunks. A big arena grows by 2 MiB huge-page regions, and the
// first touch of each is a page fault (the kernel zeroing 2 MiB) taken by
// an Add. A list that its owner releases (List.Release, after a flush) hands
// its regions to chunkPool instead of unmapping them; they are zeroed on a
// goroutine of their own and go to the next lists' arenas, already
// resident. The same change in package cspp took native fillseq at 5M keys
// from 2.71-3.00M to 3.16-3.71M ops/s.

// maxPooledChunks bounds the regions kept: 128 MiB, two default 64 MiB
// memtables' worth.
const maxPooledChunks = 64

type chunkPool struct {
	mu   sync.Mutex
	free []*hugemem.Region
}

var chunks chunkPool

// get returns a zeroed pooled region of bigChunkBytes, or nil.
func (p *chunkPool) get() *hugemem.Region {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.free)
	if n == 0 {
		return nil
	}
	r := p.free[n-1]
	p.free = p.free[:n-1]
	return r
}

// put zeroes the regions of bigChunkBytes and keeps them while there is
// room; it unmaps the others.
func (p *chunkPool) put(regions []*hugemem.Region) {
	for _, r := range regions {
		if len(r.Bytes) != bigChunkBytes {
			_ = r.Free()
			continue
		}
		clear(r.Bytes)
		p.mu.Lock()
		kept := len(p.free) < maxPooledChunks
		if kept {
			p.free = append(p.free, r)
		}
		p.mu.Unlock()
		if !kept {
			_ = r.Free()
		}
	}
}
