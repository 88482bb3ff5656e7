package skiplist

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/hugemem"
)

// Memory. A list's nodes, towers and key/value bytes live in chunks mapped
// by internal/hugemem: outside the Go heap, and, for the 2 MiB chunks of a
// memtable of 32 MiB or more, on transparent huge pages. The Go heap gets no
// huge pages (smaps showed 0 kB AnonHugePages for a 90 MiB list on it), and
// a search takes a TLB miss as well as a cache miss at every node it visits
// in random order; hugemem's read-chain benchmark: 209 ns a read in a
// huge-page region against 271 ns in a Go heap slice.
//
// The links between nodes, a tall node's tower pointer and the key/value
// pointers are pointers the collector never sees, which is safe because
// they only ever point into the list's own chunks (hugemem's rule): the
// chunks live until the list is released (Release) or, for a list dropped
// without Release, until the list is unreachable (a cleanup). Nothing in a
// chunk points anywhere else; the head, a Go object, points into the
// chunks, never the other way. In race-detector and non-Linux builds
// hugemem's chunks are []byte allocations on the Go heap, so these
// pointers are Go pointers in memory the collector does not scan; the
// arena's list of regions keeps every chunk they can reach alive, which is
// what hugemem's contract asks. The collector also no longer scans the
// nodes, which it had to while they were Go objects.
//
// Two fill cursors (streams) keep the nodes dense: nodes and towers in one,
// key and value bytes in the other, so a search's nodes are not spread over
// the values' memory. Allocation is one atomic add on the stream's current
// chunk; a mutex is taken once per chunk.

type stream int

const (
	streamNodes stream = iota
	streamBytes
	numStreams
)

const (
	// bigChunk is a chunk of a list for a memtable of bigListBytes or more:
	// one huge page. Smaller memtables get smallChunk chunks, so that a
	// tiny write buffer is not two huge pages.
	bigChunk     = hugemem.HugePageSize
	bigListBytes = 32 << 20
	smallChunk   = 64 << 10
	// maxPooledChunks bounds the released big chunks kept for the next
	// lists: 128 MiB, two default 64 MiB memtables' worth.
	maxPooledChunks = 64
)

// chunks keeps released big chunks, already resident, for the next lists
// (the first touch of a fresh huge page is the kernel zeroing 2 MiB on the
// toucher's path); see hugemem.Pool.
var chunks = hugemem.Pool{Max: maxPooledChunks, MaxIdle: hugemem.DefaultMaxIdle}

// chunk is one region being filled by a stream.
type chunk struct {
	base unsafe.Pointer
	size uintptr
	used atomic.Uintptr
}

// arena hands out the list's memory.
type arena struct {
	cur       [numStreams]atomic.Pointer[chunk]
	chunkSize uintptr
	allocated atomic.Uint64 // bytes of all chunks

	mu      sync.Mutex
	regions []*hugemem.Region // guarded by mu
}

func newArena(writeBufferSize uint64) *arena {
	size := uintptr(bigChunk)
	if writeBufferSize != 0 && writeBufferSize < bigListBytes {
		size = smallChunk
	}
	return &arena{chunkSize: size}
}

// alloc returns n bytes of zeroed memory in stream s, aligned as n is to a
// power of two up to 64 (every node-stream allocation is a multiple of 64).
func (a *arena) alloc(s stream, n uintptr) (unsafe.Pointer, error) {
	for {
		c := a.cur[s].Load()
		if c != nil {
			end := c.used.Add(n)
			if end <= c.size {
				return unsafe.Add(c.base, end-n), nil
			}
		}
		if n > a.chunkSize/4 {
			// A large piece gets a region of its own, so it never wastes
			// the rest of a shared chunk.
			r, err := a.mapRegion(n)
			if err != nil {
				return nil, err
			}
			return unsafe.Pointer(unsafe.SliceData(r.Bytes)), nil
		}
		if err := a.refill(s, c); err != nil {
			return nil, err
		}
	}
}

// refill installs a fresh chunk as stream s's current one, unless another
// goroutine replaced old meanwhile.
func (a *arena) refill(s stream, old *chunk) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cur[s].Load() != old {
		return nil
	}
	r := chunks.Get(int(a.chunkSize))
	if r == nil {
		var err error
		if r, err = hugemem.Map(int(a.chunkSize)); err != nil {
			return fmt.Errorf("skiplist: %w", err)
		}
	}
	a.regions = append(a.regions, r)
	a.allocated.Add(uint64(len(r.Bytes)))
	a.cur[s].Store(&chunk{base: unsafe.Pointer(unsafe.SliceData(r.Bytes)), size: uintptr(len(r.Bytes))})
	return nil
}

// mapRegion maps a region of its own for n bytes.
func (a *arena) mapRegion(n uintptr) (*hugemem.Region, error) {
	r, err := hugemem.Map(int(n))
	if err != nil {
		return nil, fmt.Errorf("skiplist: %w", err)
	}
	a.mu.Lock()
	a.regions = append(a.regions, r)
	a.mu.Unlock()
	a.allocated.Add(uint64(len(r.Bytes)))
	return r, nil
}

// release hands the arena's chunks to the pool (big ones; the rest are
// unmapped). Nothing may touch the arena's memory afterwards.
func (a *arena) release() { chunks.Recycle(a.take(), bigChunk) }

// free unmaps every chunk: the cleanup of a list dropped without Release.
func (a *arena) free() {
	for _, r := range a.take() {
		_ = r.Free()
	}
}

// take empties the arena's list of regions and returns it.
func (a *arena) take() []*hugemem.Region {
	a.mu.Lock()
	defer a.mu.Unlock()
	regions := a.regions
	a.regions = nil
	return regions
}
