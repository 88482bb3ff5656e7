package lsm

import (
	"bytes"
	"hash/maphash"
	"math/bits"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/hugemem"
	"github.com/godbbench/godbbench/internal/prefetch"
	"github.com/godbbench/godbbench/memtable"
)

// memPoints is a memtable's point index: a hash table from each user key
// written to the memtable to its newest entry, so that a Get finds a key's
// entry with one or two cache misses where a skip-list search takes one a
// node, level after level (BenchmarkMemtableGet, a 450,000-entry memtable
// at db_bench's defaults on the 2-vCPU machine of docs/BENCHMARKS.md:
// 1.56-1.57 us a Get of a key it holds through the search, 0.42-0.47 us
// through the index). RocksDB has no such index; the native engine keeps
// one beside the default key filter for a rep that implements
// memtable.Pointed (memtable_keyfilter.go). The index is exact, but the
// filter, a quarter of its size, answers a key the memtable does not hold
// with fewer cache misses (35-50 ns against 140-150), so a Get asks the
// filter first.//
// Layout, in memory only (so its hash and layout are free to change):
// buckets of memPointsBucket 32-bit slots, one cache line each, then a
// bitmap of one bit a bucket. A slot is 0 when free, else, for a table
// whose refs take refBits bits (those of the rep's RefBound for the
// memtable's size and an eighth more),
//
//	bits 31..refBits  tag: the same bits of the key's hash
//	bits refBits-1..0 ref: the entry's reference in the rep (never 0)
//
// A key's hash h names two buckets, the first by its high 32 bits and the
// second by those of h × 0x9E3779B97F4A7C15 (the next bucket when both are
// the same); the key lives in the first free slot, in bucket order, that
// it found when first added. An entry whose reference does not fit
// refBits (a memtable that outgrew its size by a large batch) turns the
// index off: from then on every lookup searches the rep, as the slot of
// its key would name an older entry. Slots only go from free to taken, and a taken
// slot only to a newer entry of the same key, so a lookup that meets a free
// slot knows the key is not indexed. A key whose two buckets are full sets
// its first bucket's overflow bit and is not indexed: a lookup that finds
// neither the key nor a free slot in the two buckets, and the bit set,
// searches the rep.
//
// Concurrency: adds are lock-free (compare-and-swap on the slot), for the
// parallel inserts of a write group. An add replaces a slot's entry only
// with an entry of a larger trailer, so a slot holds the key's newest
// entry added so far. Every add finishes before its write's sequence is
// published, so a reader that may see a version sees its add, and the
// slot names that version or a newer one; the rep's GetFrom walks from
// there to the version of the reader's snapshot. An index made for a
// memtable that already holds entries is published first and then filled
// by a walk of the rep (buildPoints); lookups use it only once the walk is
// done (pointsReady).
//
// Size: one slot per memPointsBytesPerSlot bytes of write_buffer_size, off
// the Go heap (hugemem, huge pages over whole 2 MiB), counted in the
// memtable's memory. At db_bench's defaults (64 MiB, 16-byte keys,
// 100-byte values) that is 699,056 slots, 2.67 MiB, for about 460,000
// entries: two thirds full; refs take 25 bits, tags 7.
type memPoints struct {
	slots    []atomic.Uint32
	overflow []atomic.Uint32 // a bit a bucket
	buckets  uint64
	refBits  uint
	state    atomic.Uint32   // pointsReady and pointsOff bits
	region   *hugemem.Region // nil: slots are on the Go heap
	cleanup  runtime.Cleanup
	released atomic.Bool
}

// The bits of memPoints.state. A lookup uses the index only when it is
// ready and not off.
const (
	pointsReady uint32 = 1 << iota // every entry is indexed
	pointsOff                      // an entry's reference did not fit
)

// memPointsBucket is the slots in a bucket: one 64-byte cache line.
const memPointsBucket = 16

// memPointsBytesPerSlot is the write_buffer_size bytes each slot stands
// for: db_bench's default entry takes about 137 bytes in the skip list, so
// the table fills to about two thirds.
const memPointsBytesPerSlot = 96

// memPointsHeapBelow is the size below which the table lives on the Go
// heap: a mapping's smallest unit is a 2 MiB huge page.
const memPointsHeapBelow = 1 << 20

// newMemPoints returns the point index of a memtable of limit bytes over
// rep.
func newMemPoints(limit uint64, rep memtable.Pointed) *memPoints {
	return newMemPointsOf(max(limit/memPointsBytesPerSlot/memPointsBucket, 1),
		uint(min(bits.Len64(rep.RefBound(limit+limit/8)), 32)))
}

// newMemPointsOf returns an index of buckets buckets whose slots keep
// refBits bits of reference.
func newMemPointsOf(buckets uint64, refBits uint) *memPoints {
	words := (buckets + 31) / 32
	size := int(buckets*memPointsBucket*4 + words*4)
	p := &memPoints{buckets: buckets, refBits: refBits}
	var mem unsafe.Pointer
	if size >= memPointsHeapBelow {
		if r, err := hugemem.MapExact(size); err == nil {
			p.region = r
			mem = unsafe.Pointer(&r.Bytes[0])
		}
	}
	if mem == nil {
		mem = unsafe.Pointer(&make([]uint32, size/4)[0])
	}
	p.slots = unsafe.Slice((*atomic.Uint32)(mem), buckets*memPointsBucket)
	p.overflow = unsafe.Slice((*atomic.Uint32)(unsafe.Add(mem, buckets*memPointsBucket*4)), words)
	if p.region != nil {
		p.cleanup = runtime.AddCleanup(p, func(r *hugemem.Region) { _ = r.Free() }, p.region)
	}
	return p
}

// bytes is the index's size.
func (p *memPoints) bytes() uint64 {
	return (p.buckets*memPointsBucket + uint64(len(p.overflow))) * 4
}

// release unmaps the table; the index must not be used afterwards.
func (p *memPoints) release() {
	if !p.released.CompareAndSwap(false, true) || p.region == nil {
		return
	}
	p.cleanup.Stop()
	_ = p.region.Free()
}

// memPointsSeed seeds the hash of every point index of the process.
var memPointsSeed = maphash.MakeSeed()

// pointsHash is where key lives in a table of buckets buckets.
type pointsHash struct {
	first, second uint64 // buckets
	tag           uint32 // in a slot's position
}

func (p *memPoints) hashOf(key []byte) pointsHash {
	h := maphash.Bytes(memPointsSeed, key)
	first := (h >> 32) * p.buckets >> 32
	second := (h * 0x9E3779B97F4A7C15 >> 32) * p.buckets >> 32
	if second == first {
		second = (first + 1) % p.buckets
	}
	return pointsHash{first, second, uint32(h) &^ p.refMask()}
}

// refMask is the ref bits of a slot.
func (p *memPoints) refMask() uint32 { return uint32(1<<p.refBits - 1) }

// startAdd hashes key, about to be added, and starts its first bucket on
// the way into the cache.
func (p *memPoints) startAdd(key []byte) pointsHash {
	h := p.hashOf(key)
	prefetch.Line(unsafe.Pointer(&p.slots[h.first*memPointsBucket]))
	return h
}

// finishAdd indexes entry ref of key, of trailer t and hash h (startAdd),
// in rep.
func (p *memPoints) finishAdd(rep memtable.Pointed, h pointsHash, key []byte, ref uint32, t base.Trailer) {
	mask := p.refMask()
	if ref > mask {
		p.state.Or(pointsOff)
		return
	}
	slot := h.tag | ref
	for _, b := range [2]uint64{h.first, h.second} {
		for i := range memPointsBucket {
			s := &p.slots[b*memPointsBucket+uint64(i)]
			for {
				v := s.Load()
				if v == 0 {
					if s.CompareAndSwap(0, slot) {
						return
					}
					continue
				}
				if v&^mask != h.tag {
					break
				}
				k, old := rep.EntryAt(v & mask)
				if !bytes.Equal(k, key) {
					break
				}
				if old >= t || s.CompareAndSwap(v, slot) {
					return
				}
			}
		}
	}
	p.overflow[h.first/32].Or(1 << (h.first % 32))
}

// pointsAnswer is what a lookup in the index found.
type pointsAnswer uint8

const (
	pointsAbsent  pointsAnswer = iota // key was never added
	pointsFound                       // ref names key's newest entry added
	pointsUnknown                     // key may be in the rep, not indexed
)

// find looks key up.
func (p *memPoints) find(rep memtable.Pointed, key []byte) (uint32, pointsAnswer) {
	if p.state.Load() != pointsReady {
		return 0, pointsUnknown
	}
	h := p.hashOf(key)
	mask := p.refMask()
	for _, b := range [2]uint64{h.first, h.second} {
		for i := range memPointsBucket {
			v := p.slots[b*memPointsBucket+uint64(i)].Load()
			if v == 0 {
				return 0, pointsAbsent
			}
			if v&^mask != h.tag {
				continue
			}
			if k, _ := rep.EntryAt(v & mask); bytes.Equal(k, key) {
				return v & mask, pointsFound
			}
		}
	}
	if p.overflow[h.first/32].Load()&(1<<(h.first%32)) != 0 {
		return 0, pointsUnknown
	}
	return 0, pointsAbsent
}

// pointsBuildInline is the most entries of a memtable whose index the Get
// that asks for it builds itself: a walk of a few thousand entries takes
// about as long as one Get that misses the block cache, and a memtable's
// memory (which counts the index) then changes at a known point.
const pointsBuildInline = 4096

// attachPoints makes p, which indexes every entry of the memtable (it has
// none yet, or p was filled by a walk), the memtable's point index.
func (m *memTable) attachPoints(p *memPoints) {
	p.state.Or(pointsReady)
	m.points.Store(p)
}

// wantPoints builds the memtable's point index when it may have one and
// has none: a Get has come to search it (DB.getIn, for the family's
// mutable memtable only). A memtable of more than pointsBuildInline
// entries gets it built on a goroutine of its own, and lookups keep
// searching the rep until the build is done.
func (m *memTable) wantPoints() {
	if m.pointRep == nil || m.points.Load() != nil || m.building.Load() || !m.building.CompareAndSwap(false, true) {
		return
	}
	m.ref()
	if m.rep.Len() <= pointsBuildInline {
		m.buildPoints()
		return
	}
	go m.buildPoints()
}

// buildPoints makes the memtable's point index and indexes every entry,
// then marks it ready. Adds that load the index after it is published
// index their own entries (memTable.add); an entry whose add loaded none
// was linked before the index was published, so the walk, which starts
// after, meets it. Both may index an entry; a slot keeps the larger
// trailer.
func (m *memTable) buildPoints() {
	defer m.unref()
	p := newMemPoints(m.limit, m.pointRep)
	m.points.Store(p)
	m.pointRep.EachRef(func(ref uint32) {
		key, t := m.pointRep.EntryAt(ref)
		p.finishAdd(m.pointRep, p.hashOf(key), key, ref, t)
	})
	p.state.Or(pointsReady)
}
