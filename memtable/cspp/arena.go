package cspp

import (
	"sync/atomic"
	"unsafe"
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
	// next is the first unallocated slot. It only grows; slots are never
	// reused within the life of the trie.
	next atomic.Uint64
	_    [56]byte
}

func (a *arena) init(nslots uint64) {
	a.slots = make([]uint32, nslots)
	a.bytes = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a.slots))), len(a.slots)*4)
	a.next.Store(firstFreeSlot)
}

// alloc reserves n consecutive slots and returns the offset of the first,
// or 0 when the arena is exhausted. One atomic add, lock-free (a CAS loop
// would retry under contention). A failed allocation still advances next
// past the end, so exhaustion is sticky: once one Add got ErrFull every later
// Add does too, even a smaller one, and the engine switches memtables.
func (a *arena) alloc(n uint32) uint32 {
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
