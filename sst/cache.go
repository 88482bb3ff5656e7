package sst

import (
	"math/bits"
	"runtime"
	"sync/atomic"

	"github.com/godbbench/godbbench/internal/hugemem"
	"github.com/godbbench/godbbench/internal/invariants"
)

// Cache is a sharded block cache with a byte budget, shared by any number of
// Readers. Blocks are keyed by (ReaderOptions.FileNum, block offset) and hold
// uncompressed block bytes.
//
// Memory layout. Cached blocks live in 64 KiB slabs, each slab cut into
// equal slots of one size class (512 B to 64 KiB in quarter-power-of-two
// steps, so a block wastes at most a fifth of its slot and about 7% on
// average).
// An 8 MiB cache is 128 slabs, a 1 GiB cache 16384, instead of the ~260,000
// small []byte a per-block allocation would give the garbage collector to
// trace; the index from key to slot (blockIndex, cache_index.go) holds no
// pointers, which the collector does not scan at all.
// The slabs are one region outside the Go heap (hugemem.MapExact), whose
// pages become resident as slabs are first handed out: on the heap they
// counted toward the collector's goal, and at db_bench's defaults (GOGC 50
// over about 17 MB live, 8 MiB of it cache) that let the heap grow 4 MB
// more before each collection. The region is unmapped by a cleanup on the
// shards, which every Reader (through the Cache) and every pinned handle
// (through its shard) keeps reachable; a block's bytes are used only while
// a handle pins it.
//
// Eviction is CLOCK per size class: a hit sets the slot's reference bit, the
// hand clears set bits and evicts the first unreferenced, unpinned slot.
// Slabs are handed out to classes on demand until the budget is spent; a
// class that then has no slab (or only pinned slots) takes a whole unpinned
// slab from the class owning the most, and a class that keeps evicting
// takes the slabs of other classes whose blocks are no longer read
// (cache_rebalance.go), so the size mix follows the reads.
// Readers pin a slot while they use its bytes (an atomic count), so a block
// is never overwritten under a reader. Blocks over 64 KiB, and blocks for
// which no slot can be freed, are not cached; the reader then decodes into
// its own buffer. Lookups take a shard read lock, so hits on one shard run
// in parallel; inserts and evictions take the write lock. Once a shard has
// had to evict, a data block is cached only on its second miss within a
// recent window, and a block read ahead by a scan not at all
// (cache_admission.go).
type Cache struct {
	shards   []cacheShard
	mask     uint64
	capacity int64
}

const (
	slabSize        = 64 << 10
	slotsPerSlabMax = slabSize / 512
)

// slotClasses are the slot sizes, quarter-power-of-two steps.
//
// Why quarter steps: at db_bench's defaults (16-byte keys, 100-byte values,
// 4 KiB pairs) key blocks decode to 608-639 bytes and value blocks to
// 3456-3519. Half steps put them in 768- and 4096-byte slots, 4864 bytes of
// budget per pair for 4130 of data; quarter steps give 640 and 3584, 4224
// bytes, so an 8 MiB cache holds 15% more pairs. A slab of a size that does
// not divide 64 KiB leaves its tail unused (at most 1.6%, 3584-byte slots).
var slotClasses = [...]int32{512, 640, 768, 896, 1024, 1280, 1536, 1792,
	2048, 2560, 3072, 3584, 4096, 5120, 6144, 7168, 8192,
	10240, 12288, 14336, 16384, 20480, 24576, 28672, 32768,
	40960, 49152, 57344, 65536}

// classOf returns the smallest class whose slots hold n bytes, or -1.
func classOf(n int) int {
	for c, s := range slotClasses {
		if int32(n) <= s {
			return c
		}
	}
	return -1
}

type cacheKey struct{ file, off uint64 }

type slotState uint8

const (
	slotFree     slotState = iota
	slotLive               // in the table
	slotReserved           // being filled, not yet in the table
	slotOrphan             // filled but lost an insert race; reclaimed by the clock
)

type slotMeta struct {
	key   cacheKey
	n     int32
	state slotState // guarded by the shard lock
	refs  atomic.Int32
	hot   atomic.Uint32
}

type slab struct {
	buf   []byte
	meta  []slotMeta
	class int8
}

type cacheShard struct {
	mu    shardLock
	mem   []byte     // the shard's part of the slab region; nil: slabs come from the Go heap
	table blockIndex // slot id: slab index × slotsPerSlabMax + slot (cache_index.go)
	slabs []slab     // fixed length: the shard's budget in slabs
	used  int        // slabs with a buffer
	free  [len(slotClasses)][]int32
	owned [len(slotClasses)][]int32 // slabs of each class, in allocation order
	hand  [len(slotClasses)]int     // clock position in owned slots
	// slabHand is each class's slab position for rebalance, evictions
	// its evictions since it last called on another class's slab
	// (cache_rebalance.go).
	slabHand  [len(slotClasses)]int
	evictions [len(slotClasses)]int
	usage     atomic.Int64
	full      atomic.Bool // set at the shard's first eviction: admission applies (cache_admission.go)
	door      doorkeeper
}

// NewCache returns a cache of capacityBytes split into 1<<numShardBits
// shards. numShardBits < 0 picks one shard per 1 MiB of capacity, at most
// 64 and always a power of two. capacityBytes <= 0 returns nil, which means
// no caching.
func NewCache(capacityBytes int64, numShardBits int) *Cache {
	if capacityBytes <= 0 {
		return nil
	}
	if numShardBits < 0 {
		n := max(capacityBytes>>20, 1)
		numShardBits = min(63-bits.LeadingZeros64(uint64(n)), 6)
	}
	numShardBits = min(numShardBits, 16)
	shards := 1 << numShardBits
	// Every shard needs at least one slab per class that is in use; keep
	// shards at 4 slabs or more.
	for shards > 1 && capacityBytes/int64(shards) < 4*slabSize {
		shards >>= 1
	}
	c := &Cache{shards: make([]cacheShard, shards), mask: uint64(shards - 1), capacity: capacityBytes}
	per := max(capacityBytes/int64(shards)/slabSize, 1)
	// Where there is no off-heap memory (race-detector builds, other
	// systems) or the region cannot be mapped (address space exhausted),
	// each slab is a Go heap allocation made when first handed out.
	var mem []byte
	if hugemem.OffHeap {
		if region, err := hugemem.MapExact(int(int64(shards) * per * slabSize)); err == nil {
			runtime.AddCleanup(&c.shards[0], func(r *hugemem.Region) { _ = r.Free() }, region)
			mem = region.Bytes
		}
	}
	span := per * slabSize
	for i := range c.shards {
		sh := &c.shards[i]
		sh.slabs = make([]slab, per)
		sh.door = newDoorkeeper(span)
		if mem != nil {
			sh.mem = mem[int64(i)*span : int64(i+1)*span : int64(i+1)*span]
		}
	}
	return c
}

// Capacity returns the byte budget.
func (c *Cache) Capacity() int64 {
	if c == nil {
		return 0
	}
	return c.capacity
}

// Usage returns the bytes of slots holding blocks.
func (c *Cache) Usage() int64 {
	if c == nil {
		return 0
	}
	var u int64
	for i := range c.shards {
		u += c.shards[i].usage.Load()
	}
	return u
}

func (c *Cache) shard(k cacheKey) *cacheShard {
	h := (k.file*0x9E3779B97F4A7C15 ^ k.off) * 0xC2B2AE3D27D4EB4F
	return &c.shards[(h>>32)&c.mask]
}

// cacheHandle pins one slot; the zero value pins nothing.
type cacheHandle struct {
	s  *cacheShard
	id int32
}

func (h cacheHandle) release() {
	if h.s != nil {
		if n := h.s.meta(h.id).refs.Add(-1); invariants.Enabled && n < 0 {
			invariants.Violated("sst: block cache slot %d released more often than pinned", h.id)
		}
	}
}

func (s *cacheShard) meta(id int32) *slotMeta {
	return &s.slabs[id/slotsPerSlabMax].meta[id%slotsPerSlabMax]
}

func (s *cacheShard) bytes(id int32, n int32) []byte {
	sl := &s.slabs[id/slotsPerSlabMax]
	size := slotClasses[sl.class]
	off := (id % slotsPerSlabMax) * size
	return sl.buf[off : off+n : off+n]
}

// lookup returns the pinned block for (file, off) if it is cached. hint
// holds 1 + the slot id where the block was last published or found by
// publish (0: never); a Reader keeps one per block. The hint is the whole
// lookup: a block is looked for only in the slot it names, never in the
// index, so a miss (about nine lookups in ten at db_bench's defaults, 8 MiB
// of cache for 110 MB of tables) with a zero hint takes no lock and touches
// nothing shared, and one with a stale hint one slot's metadata.
//
// Why it is enough: only Readers insert blocks, each Reader only its own
// (FileNum, offset) keys, and publish points the hint at the slot holding
// the block, also when another insert of the same block won the race. A
// block cached by another Reader of the same file (a table reopened while
// the old Reader's blocks are still cached) is missed once: the read that
// follows finds it in publish and repoints the hint, and its own copy is
// reclaimed by the clock. The index still decides what is cached (publish,
// eviction); lookups in the cached point-read path spent about half their
// time probing the map that preceded the index, mostly cache misses on
// its control words.
func (c *Cache) lookup(file, off uint64, hint *atomic.Int32) (cacheHandle, []byte, bool) {
	hv := hint.Load()
	if hv <= 0 {
		return cacheHandle{}, nil, false
	}
	k := cacheKey{file, off}
	s := c.shard(k)
	id := hv - 1
	s.mu.RLock()
	if idx := int(id / slotsPerSlabMax); idx < len(s.slabs) {
		sl := &s.slabs[idx]
		if slot := int(id % slotsPerSlabMax); slot < len(sl.meta) {
			if m := &sl.meta[slot]; m.state == slotLive && m.key == k {
				return s.pin(id, m)
			}
		}
	}
	s.mu.RUnlock()
	return cacheHandle{}, nil, false
}

// pin takes a reference on slot id and releases the read lock.
func (s *cacheShard) pin(id int32, m *slotMeta) (cacheHandle, []byte, bool) {
	m.refs.Add(1)
	if m.hot.Load() == 0 {
		m.hot.Store(1)
	}
	b := s.bytes(id, m.n)
	s.mu.RUnlock()
	return cacheHandle{s, id}, b, true
}

// reserve returns a pinned slot of n bytes for (file, off) to fill, not yet
// visible to lookups; publish makes it visible. ok is false when the block
// cannot be cached.
func (c *Cache) reserve(file, off uint64, n int) (cacheHandle, []byte, bool) {
	class := classOf(n)
	if class < 0 {
		return cacheHandle{}, nil, false
	}
	k := cacheKey{file, off}
	s := c.shard(k)
	s.mu.Lock()
	id, ok := s.allocate(class)
	if !ok {
		s.mu.Unlock()
		return cacheHandle{}, nil, false
	}
	m := s.meta(id)
	m.key, m.n, m.state = k, int32(n), slotReserved
	m.refs.Store(1)
	m.hot.Store(0)
	s.usage.Add(int64(slotClasses[class]))
	b := s.bytes(id, int32(n))
	s.mu.Unlock()
	return cacheHandle{s, id}, b, true
}

// publish makes a filled reserved slot visible to lookups and points hint
// at it, or, when the block was cached meanwhile, at the slot holding it.
func (c *Cache) publish(h cacheHandle, hint *atomic.Int32) {
	s := h.s
	s.mu.Lock()
	m := s.meta(h.id)
	if id, dup := s.table.get(m.key); dup {
		m.state = slotOrphan // another insert cached it first
		hint.Store(id + 1)
	} else {
		m.state = slotLive
		s.table.put(m.key, h.id)
		hint.Store(h.id + 1)
	}
	s.mu.Unlock()
}

// allocate finds a free slot of class: from the free list, from a new slab
// while the budget allows, or by evicting with the class's clock hand.
func (s *cacheShard) allocate(class int) (int32, bool) {
	if f := s.free[class]; len(f) > 0 {
		id := f[len(f)-1]
		s.free[class] = f[:len(f)-1]
		return id, true
	}
	if s.used < len(s.slabs) {
		idx := s.used
		s.used++
		slots := int32(slabSize / slotClasses[class])
		var buf []byte
		if s.mem != nil {
			buf = s.mem[idx*slabSize : (idx+1)*slabSize : (idx+1)*slabSize]
		} else {
			buf = make([]byte, slabSize)
		}
		s.slabs[idx] = slab{buf: buf, meta: make([]slotMeta, slots), class: int8(class)}
		s.owned[class] = append(s.owned[class], int32(idx))
		base := int32(idx) * slotsPerSlabMax
		for i := slots - 1; i > 0; i-- {
			s.free[class] = append(s.free[class], base+i)
		}
		return base, true
	}
	if !s.full.Load() {
		s.full.Store(true)
	}
	if id, ok := s.rebalance(class); ok {
		return id, true
	}
	if id, ok := s.evict(class); ok {
		return id, true
	}
	return s.steal(class)
}

// evict runs the clock of class and frees the first unpinned slot whose
// reference bit is clear.
func (s *cacheShard) evict(class int) (int32, bool) {
	owned := s.owned[class]
	if len(owned) == 0 {
		return 0, false
	}
	slots := slabSize / int(slotClasses[class])
	total := len(owned) * slots
	// Two sweeps: the first may only clear reference bits.
	for range 2 * total {
		pos := s.hand[class] % total
		s.hand[class] = (pos + 1) % total
		id := owned[pos/slots]*slotsPerSlabMax + int32(pos%slots)
		m := s.meta(id)
		if m.state == slotReserved || m.refs.Load() != 0 {
			continue
		}
		if m.state == slotLive && m.hot.Load() != 0 {
			m.hot.Store(0)
			continue
		}
		if m.state == slotLive {
			s.table.remove(m.key)
		}
		if m.state != slotFree {
			s.usage.Add(-int64(slotClasses[class]))
		}
		m.state = slotFree
		return id, true
	}
	return 0, false
}

// steal moves a whole slab to class from the class that owns the most
// slabs, when class has no slab or all of its slots are pinned. Without it
// the first block sizes to arrive would own the whole budget and other
// sizes would never be cached. Only a slab without pinned or reserved
// slots can move; its blocks are evicted.
func (s *cacheShard) steal(class int) (int32, bool) {
	victim := s.largestOther(class, 1)
	if victim < 0 {
		return 0, false
	}
	oldSlots := slabSize / int(slotClasses[victim])
	for k, idx := range s.owned[victim] {
		sl := &s.slabs[idx]
		busy := false
		for j := range oldSlots {
			if m := &sl.meta[j]; m.state == slotReserved || m.refs.Load() != 0 {
				busy = true
				break
			}
		}
		if busy {
			continue
		}
		return s.moveSlab(victim, k, class), true
	}
	return 0, false
}

// largestOther is the class other than class owning the most slabs, at
// least min of them, or -1.
func (s *cacheShard) largestOther(class, min int) int {
	victim := -1
	for c := range s.owned {
		if c != class && len(s.owned[c]) >= min && (victim < 0 || len(s.owned[c]) > len(s.owned[victim])) {
			victim = c
		}
	}
	return victim
}

// moveSlab evicts the blocks of slab owned[victim][k], which has no pinned
// or reserved slot, hands it to class and returns its first slot, the
// others going to class's free list.
func (s *cacheShard) moveSlab(victim, k, class int) int32 {
	idx := s.owned[victim][k]
	sl := &s.slabs[idx]
	for j := range sl.meta {
		m := &sl.meta[j]
		if m.state == slotLive {
			s.table.remove(m.key)
		}
		if m.state != slotFree {
			s.usage.Add(-int64(slotClasses[victim]))
		}
	}
	s.owned[victim] = append(s.owned[victim][:k], s.owned[victim][k+1:]...)
	base := idx * slotsPerSlabMax
	free := s.free[victim][:0]
	for _, id := range s.free[victim] {
		if id/slotsPerSlabMax != idx {
			free = append(free, id)
		}
	}
	s.free[victim] = free
	slots := int32(slabSize / slotClasses[class])
	if int32(cap(sl.meta)) >= slots {
		sl.meta = sl.meta[:slots]
		for j := range sl.meta {
			sl.meta[j].state = slotFree
		}
	} else {
		sl.meta = make([]slotMeta, slots)
	}
	sl.class = int8(class)
	s.owned[class] = append(s.owned[class], idx)
	for i := slots - 1; i > 0; i-- {
		s.free[class] = append(s.free[class], base+i)
	}
	return base
}

// abandon gives back a reserved slot that could not be filled.
func (c *Cache) abandon(h cacheHandle) {
	h.s.mu.Lock()
	h.s.meta(h.id).state = slotOrphan
	h.s.mu.Unlock()
	h.release()
}
