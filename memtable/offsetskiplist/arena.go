package offsetskiplist

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/hugemem"
	"github.com/godbbench/godbbench/memtable"
)

const (
	// maxArenaBytes is what uint32 offsets in 4-byte units can address.
	maxArenaBytes = 16 << 30
	// windowShift: the offset space is cut into 1 MiB windows. It is a
	// constant, so resolving an offset loads nothing but the window.
	windowShift = 20
	windowSize  = 1 << windowShift
	// bigChunkBytes is the smallest chunk of a big arena (16 MiB or more):
	// one huge page. smallChunkBytes is a small arena's, so a tiny
	// memtable does not take a whole MiB.
	bigChunkBytes   = hugemem.HugePageSize
	bigArenaBytes   = 16 << 20
	smallChunkBytes = 64 << 10
)

// arena is the rep's only memory: chunks of []byte (no Go pointers inside,
// so the GC never scans them) addressed by uint32 offsets in 4-byte units.
//
// The offset space is cut into 1 MiB windows. A chunk starts a window and
// covers one or more consecutive ones (a small arena's 64 KiB chunks leave
// the rest of theirs unused: offset space, not memory), and windows[w] is
// the address of window w, so resolving an offset is a shift, a mask and
// one load:
//
//	byteOff = off << 2
//	addr    = windows[byteOff >> 20] + (byteOff & (1 MiB - 1))
//
// The shift and mask are constants: with the window size a field of the
// arena, as it was for small arenas' 64 KiB windows, every resolve loaded
// it, and cachegrind counted 3 more instructions a node visited (readrandom
// at 100K keys: 30.6 M instructions in the resolves against skip_list's
// 20.8 M).
//
// An allocation never straddles two chunks, so every object is contiguous.
// Offset 0 is reserved as nil.
//
// Allocation is one atomic add on the current chunk's fill mark (about 5 ns
// uncontended); a mutex is taken only to install the next chunk. There are
// two fill cursors (see stream). Chunks come into existence as the memtable
// grows, up to capBytes; past that, alloc returns memtable.ErrFull and
// nothing is written, so a full arena is never corrupted. The window table
// has one entry per smallest chunk the capacity holds, so it never runs out
// before the capacity does.
//
// Chunks of a big arena are 2 MiB regions from internal/hugemem: outside
// the Go heap and on transparent huge pages. A search touches one node per
// step in random order, so a TLB miss per step is what 4 KiB pages cost:
// with 3M keys (119 MiB of nodes, memtablerep_bench runs alternated on a
// loaded 2-core VM) fillrandom went from 3.4-4.6 to 3.0 µs/op and readrandom
// from 4.2-5.7 to 3.3. The regions are unmapped by free, which List ties to
// its own reachability. Small arenas (tests, tiny memtables) take chunks
// from the Go heap.
type arena struct {
	windows   []unsafe.Pointer
	big       bool   // 2 MiB hugemem chunks, else 64 KiB heap chunks
	minChunk  uint64 // the smallest chunk; sizes are multiples of it
	capBytes  uint64
	cur       [numStreams]atomic.Pointer[chunk]
	allocated atomic.Uint64 // bytes of all chunks

	mu         sync.Mutex
	nextWindow uint64            // guarded by mu
	regions    []*hugemem.Region // guarded by mu; freed by free
}

// chunk is one contiguous allocation starting at byte offset start.
type chunk struct {
	start uint64
	size  uint64
	used  atomic.Uint64
	mem   []byte // keeps heap memory reachable; nil for a hugemem region
}

func newArena(capBytes uint64) *arena {
	capBytes = min(capBytes, maxArenaBytes)
	a := &arena{big: capBytes >= bigArenaBytes, minChunk: smallChunkBytes}
	if a.big {
		a.minChunk = windowSize
	}
	a.capBytes = max(capBytes&^(a.minChunk-1), a.minChunk)
	a.windows = make([]unsafe.Pointer, a.capBytes/a.minChunk)
	return a
}

// resolver resolves offsets: the address of the window table, which never
// moves or grows. Lists keep a copy, so a search resolves a node with one
// load from the table and no bounds check.
type resolver struct {
	windows unsafe.Pointer // &arena.windows[0]
}

// addr resolves a non-nil offset to its address. Offsets come from alloc,
// so the window index is always inside the table.
func (r resolver) addr(off uint32) unsafe.Pointer {
	b := uint64(off) << 2
	w := *(*unsafe.Pointer)(unsafe.Add(r.windows, (b>>windowShift)*uint64(unsafe.Sizeof(r.windows))))
	return unsafe.Add(w, b&(windowSize-1))
}

// resolver returns a's resolver.
func (a *arena) resolver() resolver {
	return resolver{windows: unsafe.Pointer(unsafe.SliceData(a.windows))}
}

// stream selects one of the arena's fill cursors. Nodes (with the first
// version's value inline) and the version records of keys with more than
// one version are filled into different chunks: the nodes a search walks
// stay dense, and records, whose sizes are multiples of 8, stay 8-aligned
// (versions.go refers to them in 8-byte units). Offset 0, which the chunk
// at byte 0 skips, is in the node stream: the list's first allocation is
// its head node.
type stream int

const (
	streamNodes stream = iota
	streamValues
	numStreams
)

// alloc reserves n bytes (a multiple of 4) in stream s and returns their
// offset.
func (a *arena) alloc(n uint64, s stream) (uint32, error) {
	for {
		c := a.cur[s].Load()
		if c != nil {
			end := c.used.Add(n)
			if end <= c.size {
				return uint32((c.start + end - n) >> 2), nil
			}
		}
		if err := a.refill(s, c, n); err != nil {
			return 0, err
		}
	}
}

// refill installs a chunk big enough for n bytes as stream s's current
// one, unless another goroutine replaced old meanwhile.
func (a *arena) refill(s stream, old *chunk, n uint64) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cur[s].Load() != old {
		return nil
	}
	size := (n + a.minChunk - 1) &^ (a.minChunk - 1)
	if a.big {
		size = max(size, bigChunkBytes)
	}
	if left := a.capBytes - a.allocated.Load(); size > left {
		if left < n {
			return memtable.ErrFull
		}
		size = left // the last, partial chunk
	}
	nwin := (size + windowSize - 1) >> windowShift
	var mem []byte
	if a.big {
		r := (*hugemem.Region)(nil)
		if size == bigChunkBytes {
			r = chunks.Get(bigChunkBytes)
		}
		if r == nil {
			var err error
			if r, err = hugemem.Map(int(size)); err != nil {
				return err
			}
		}
		a.regions = append(a.regions, r)
		mem = r.Bytes
	} else {
		mem = make([]byte, size)
	}
	base := unsafe.Pointer(unsafe.SliceData(mem))
	for k := uint64(0); k < nwin; k++ {
		a.windows[a.nextWindow+k] = unsafe.Add(base, k<<windowShift)
	}
	c := &chunk{start: a.nextWindow << windowShift, size: size}
	if !a.big {
		c.mem = mem
	}
	if c.start == 0 {
		c.used.Store(4) // offset 0 is nil
	}
	a.nextWindow += nwin
	a.allocated.Add(size)
	a.cur[s].Store(c)
	return nil
}

// release hands the arena's regions to the chunk pool (see chunkpool.go).
// Nothing may touch the arena afterwards.
func (a *arena) release() {
	a.mu.Lock()
	regions := a.regions
	a.regions = nil
	a.mu.Unlock()
	poolChunks(regions)
}

// free unmaps the arena's hugemem regions. Nothing may touch the arena
// afterwards; List calls it once it is unreachable.
func (a *arena) free() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, r := range a.regions {
		_ = r.Free()
	}
	a.regions = nil
}
