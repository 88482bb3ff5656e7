package cspp

import (
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/hugemem"
	"github.com/godbbench/godbbench/internal/prefetch"
)

// maxSlots bounds the arena: bit 31 of a version pin is its lock bit, so a
// block offset must fit in 31 bits (2^31 slots = 8 GiB).
const maxSlots = 1 << 31

// firstFreeSlot is the first slot handed out by alloc: slot 0 is the nil
// offset and slots 1..rootSlots hold the root node.
const firstFreeSlot = rootOffset + directNodeSlots

// arena is one fixed run of 4-byte slots. It is allocated once, up front;
// Go fills it from fresh, zeroed pages, so untouched slots cost address
// space, not resident memory. It holds no Go pointers, so the collector
// never scans it (a []uint32 is a noscan span).
type arena struct {
	slots []uint32
	// bytes aliases slots as bytes, for key and value bytes.
	bytes []byte
	// Writers bump next on every Add while readers load the slice headers
	// above on every step; padding on both sides keeps next on a cache line
	// of its own so readers do not take a coherence miss per writer.
	_ [64]byte
	// next is the first never allocated slot. It only grows; retired runs
	// come back through rc's free lists instead.
	next atomic.Uint64
	_    [56]byte
	rc   reclaimer
}

// hugeArenaBytes is the arena size from which init maps the slots outside
// the Go heap on transparent huge pages (internal/hugemem) instead of making
// a heap slice. Lookups and inserts touch one node per trie level in random
// order, so 4 KiB pages cost a TLB miss per level on a big memtable; off the
// heap, a 4 GiB mem_cap also no longer counts toward the collector's heap
// goal (which let garbage pile up to the arena's size before a GC).
const hugeArenaBytes = 16 << 20

// init sizes the arena to nslots. It returns the hugemem region backing the
// slots (a released trie's, when the pool has one of that size), which the owner must free once nothing can touch them, or nil when
// the slots are on the Go heap: small arenas, and big ones whose mapping
// was refused (a tight ulimit -v; the heap then fails the same way only if
// the memory truly is not there).
func (a *arena) init(nslots uint64) *hugemem.Region {
	var region *hugemem.Region
	if nslots*4 >= hugeArenaBytes {
		region = regions.Get(int(nslots * 4))
		if region == nil {
			if r, err := hugemem.Map(int(nslots * 4)); err == nil {
				region = r
			}
		}
		if region != nil {
			a.slots = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(region.Bytes))), nslots)
		}
	}
	if region == nil {
		a.slots = make([]uint32, nslots)
	}
	a.bytes = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a.slots))), len(a.slots)*4)
	a.next.Store(firstFreeSlot)
	return region
}

// alloc reserves n consecutive slots and returns the offset of the first,
// or 0 when the arena is exhausted: a free run of exactly n slots from the
// caller's registration shard when one waits, otherwise fresh slots from
// the cursor.
func (a *arena) alloc(shard, n uint32) uint32 {
	if off := a.reuse(shard, n); off != 0 {
		return off
	}
	return a.allocFresh(n)
}

// allocPair reserves a run of n1 slots and one of n2 slots: reused runs when
// free ones of those sizes wait, otherwise fresh and adjacent (one cursor
// add). Either offset is 0 when the arena is exhausted.
func (a *arena) allocPair(shard, n1, n2 uint32) (uint32, uint32) {
	o1, o2 := a.reuse(shard, n1), a.reuse(shard, n2)
	switch {
	case o1 == 0 && o2 == 0:
		if o1 = a.allocFresh(n1 + n2); o1 == 0 {
			return 0, 0
		}
		return o1, o1 + n1
	case o1 == 0:
		o1 = a.allocFresh(n1)
	case o2 == 0:
		o2 = a.allocFresh(n2)
	}
	return o1, o2
}

// allocFresh takes n slots from the cursor. One atomic add, lock-free (a CAS
// loop would retry under contention). A failed allocation still advances
// next past the end, so exhaustion is sticky: once one Add got ErrFull every
// later Add does too, even a smaller one (reuse checks it as well), and the
// engine switches memtables.
func (a *arena) allocFresh(n uint32) uint32 {
	end := a.next.Add(uint64(n))
	if end > uint64(len(a.slots)) {
		return 0
	}
	return uint32(end - uint64(n))
}

// used is the number of slots handed out (capped at the capacity).
func (a *arena) used() uint64 {
	n := a.next.Load()
	if n > uint64(len(a.slots)) {
		n = uint64(len(a.slots))
	}
	return n
}

func (a *arena) load(off uint32) uint32 { return atomic.LoadUint32(&a.slots[off]) }

// slot is slot off's address without a bounds check, for offsets read from
// the arena itself (links, pins, block offsets), in bounds by construction:
// the iterator's fast path (leafrun.go) reads a handful an entry.
func (a *arena) slot(off uint32) *uint32 {
	return (*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(a.slots)), uintptr(off)*4))
}

// touch prefetches slot off's cache line when off is inside the arena: a
// read-ahead offset (a link plus a span) may point past its end, and an
// address past the slice is not formed, not even for a prefetch.
func (a *arena) touch(off uint32) {
	if uint64(off) < uint64(len(a.slots)) {
		prefetch.Line(unsafe.Pointer(a.slot(off)))
	}
}

func (a *arena) store(off, v uint32) { atomic.StoreUint32(&a.slots[off], v) }

func (a *arena) cas(off, old, v uint32) bool {
	return atomic.CompareAndSwapUint32(&a.slots[off], old, v)
}

// byteRange returns n bytes starting at slot off, capped so that appending
// to the result never writes into the arena.
func (a *arena) byteRange(off uint32, n uint32) []byte {
	b := uint64(off) * 4
	return a.bytes[b : b+uint64(n) : b+uint64(n)]
}

// putBytes copies p into the slots starting at off. The slots must be freshly
// allocated and not yet published.
func (a *arena) putBytes(off uint32, p []byte) {
	copy(a.bytes[uint64(off)*4:], p)
}

// slotsFor is the number of slots that hold n bytes.
func slotsFor(n int) uint32 { return uint32((n + 3) / 4) }
