package sst

// Slabs move between size classes by recency, not only when a class has
// none: each time a class has evicted a quarter of a slab's worth of its
// own slots, it looks at one slab of the class owning the most
// slabs, that class's slab hand going round them. A slab in which some
// block was hit since the hand last passed has its reference bits cleared
// and stays; a slab none of whose blocks was hit since (cold), with no
// pinned or reserved slot, moves to the evicting class, its blocks evicted.
// A class keeps at least one slab this way.
//
// Why: the share of the budget each slot size held was fixed once the
// cache was full, so a workload that changes what it reads stayed with the
// previous one's mix. At db_bench's defaults updaterandom, which reads key
// and value blocks (640- and 3584-byte slots), leaves the 8 MiB cache
// mostly value-block slabs; seekrandom, which reads only key blocks, then
// evicted key blocks among the key class's few slabs while the value
// blocks, never read again, kept the rest: 0.88 preads per seek over
// 1,000,000 seeks (fillseq,fillrandom,overwrite,updaterandom,seekrandom at
// --num=1000000, --report_file_operations). With slabs moving the key
// blocks take the cache over: 0.71 looking at a slab per slab's worth of
// evictions, 0.68 per quarter of one (the cache holds about half of the
// table's key blocks, so about 0.5 is the floor); updaterandom's reads
// stayed at 0.83-0.84 per op.
//
// The look costs one slab's metadata scan per quarter slab of evictions,
// under the shard's write lock, which eviction holds anyway.

// rebalance is called by allocate when class has no free slot and the
// budget is spent. It returns a slot of a cold slab moved to class, or
// false when it is not yet class's turn or the slab looked at is not cold.
func (s *cacheShard) rebalance(class int) (int32, bool) {
	s.evictions[class]++
	if s.evictions[class] < slabSize/int(slotClasses[class])/4 {
		return 0, false
	}
	s.evictions[class] = 0
	victim := s.largestOther(class, 2)
	if victim < 0 {
		return 0, false
	}
	k := s.slabHand[victim] % len(s.owned[victim])
	s.slabHand[victim] = k + 1
	sl := &s.slabs[s.owned[victim][k]]
	cold := true
	for j := range sl.meta {
		m := &sl.meta[j]
		if m.state == slotReserved || m.refs.Load() != 0 {
			return 0, false
		}
		if m.state == slotLive && m.hot.Load() != 0 {
			m.hot.Store(0)
			cold = false
		}
	}
	if !cold {
		return 0, false
	}
	return s.moveSlab(victim, k, class), true
}
