package skiplist

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/hugemem"
	"github.com/godbbench/godbbench/memtable"
)

// Memory. A list's nodes live in chunks mapped by internal/hugemem: outside
// the Go heap, and, for the 2 MiB chunks of a memtable of 32 MiB or more, on
// transparent huge pages. The Go heap gets no huge pages (smaps showed 0 kB
// AnonHugePages for a 90 MiB list on it), and a search takes a TLB miss as
// well as a cache miss at every node it visits in random order; hugemem's
// read-chain benchmark: 209 ns a read in a huge-page region against 271 ns
// in a Go heap slice.
//
// Nodes refer to each other by uint32 offsets in 4-byte units, which
// halves the links against pointers and keeps every pointer out of the
// chunks. The offset space is cut into 2 MiB windows; a chunk starts a
// window (a small memtable's 64 KiB chunks leave the rest of theirs
// unused), and a region bigger than a window covers consecutive ones. The
// window table maps window w to its address, so resolving an offset is a
// shift, a mask and one load from the table:
//
//	byteOff = off << 2
//	addr    = windows[byteOff >> 21] + (byteOff & (2 MiB - 1))
//
// The table is an array of maxWindows entries, so it never moves: 16 GiB
// of reach with 2 MiB chunks, 512 MiB with 64 KiB ones (past that, Add
// returns memtable.ErrFull). A window's entry is written before any offset
// in it is handed out. Window 0 is the head node, a Go allocation of the
// arena's own, so that Release can empty the list without touching chunks
// it hands to the next list; no offset handed out by alloc is in window 0,
// so offset 0 is nil.
//
// Allocation is one atomic add on the current chunk's fill mark; a mutex is
// taken once per chunk. An allocation never straddles two chunks, so a node
// is contiguous; one larger than a quarter of a chunk gets a region of its
// own, so it never wastes the rest of a shared chunk.

const (
	// windowShift: 2 MiB windows.
	windowShift = 21
	windowSize  = 1 << windowShift
	// maxWindows is the window table's size: what uint32 offsets in 4-byte
	// units reach (16 GiB).
	maxWindows = 1 << (34 - windowShift)

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

// chunk is the region being filled.
type chunk struct {
	base  unsafe.Pointer
	start uint64 // byte offset of base
	size  uint64
	used  atomic.Uint64
}

// resolver resolves offsets: the window table, which never moves.
type resolver struct{ windows *[maxWindows]unsafe.Pointer }

// addr resolves a non-nil offset to its address.
func (r resolver) addr(off uint32) unsafe.Pointer {
	b := uint64(off) << 2
	return unsafe.Add(r.windows[(b>>windowShift)&(maxWindows-1)], b&(windowSize-1))
}

// arena hands out the list's memory and resolves offsets.
type arena struct {
	resolver
	chunkSize uint64
	cur       atomic.Pointer[chunk]
	allocated atomic.Uint64 // bytes of all chunks

	// head is window 0, which holds only the head node.
	head *[headWords]uint32

	mu       sync.Mutex
	nwindows int               // guarded by mu; windows in use
	regions  []*hugemem.Region // guarded by mu
}

func newArena(writeBufferSize uint64) *arena {
	// Window table entries are written under mu, before an offset in them
	// is handed out.
	a := &arena{head: new([headWords]uint32), nwindows: 1, chunkSize: bigChunk}
	a.windows = new([maxWindows]unsafe.Pointer)
	if writeBufferSize != 0 && writeBufferSize < bigListBytes {
		a.chunkSize = smallChunk
	}
	a.windows[0] = unsafe.Pointer(a.head)
	return a
}

// alloc returns the offset and address of n zeroed bytes, n a multiple of
// 4, at 4-byte alignment.
func (a *arena) alloc(n uint64) (uint32, unsafe.Pointer, error) {
	for {
		c := a.cur.Load()
		if c != nil {
			end := c.used.Add(n)
			if end <= c.size {
				return uint32((c.start + end - n) >> 2), unsafe.Add(c.base, end-n), nil
			}
		}
		if n > a.chunkSize/4 {
			c, err := a.install(n, nil, false)
			if err != nil {
				return 0, nil, err
			}
			return uint32(c.start >> 2), c.base, nil
		}
		if _, err := a.install(a.chunkSize, c, true); err != nil {
			return 0, nil, err
		}
	}
}

// install maps a region of at least n bytes at the next free windows and,
// when current, makes it the chunk allocations are carved from in place of
// full, the one the caller found full (nil: none yet). If another
// goroutine replaced full meanwhile, it installs nothing: compared with
// the chunk current at the call instead, each of several writers that
// found full full installed a chunk of its own, each abandoning the last
// after a few allocations (up to a chunk of memory per writer, counted in
// the memtable's usage).
func (a *arena) install(n uint64, full *chunk, current bool) (*chunk, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if current && a.cur.Load() != full {
		return nil, nil // another goroutine installed one meanwhile
	}
	size := (n + a.chunkSize - 1) &^ (a.chunkSize - 1)
	nwin := int((size + windowSize - 1) >> windowShift)
	first := a.nwindows
	if first+nwin > maxWindows {
		return nil, fmt.Errorf("skiplist: %w: %d windows of entries", memtable.ErrFull, maxWindows-1)
	}
	var r *hugemem.Region
	if size == bigChunk {
		r = chunks.Get(bigChunk)
	}
	if r == nil {
		var err error
		if r, err = hugemem.Map(int(size)); err != nil {
			return nil, fmt.Errorf("skiplist: %w", err)
		}
	}
	a.regions = append(a.regions, r)
	base := unsafe.Pointer(unsafe.SliceData(r.Bytes))
	for k := 0; k < nwin; k++ {
		a.windows[first+k] = unsafe.Add(base, k<<windowShift)
	}
	a.nwindows += nwin
	a.allocated.Add(size)
	c := &chunk{base: base, start: uint64(first) << windowShift, size: size}
	if current {
		a.cur.Store(c)
	}
	return c, nil
}

// release hands the arena's chunks to the pool (big ones; the rest are
// unmapped). Nothing may touch the arena's chunks afterwards.
func (a *arena) release() {
	chunks.Recycle(a.take(), bigChunk)
}

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
