package sst

// blockIndex is a cache shard's index from block key to slot id: an
// open-addressed hash table with linear probing, in place of a Go map.
//
// Why: at db_bench's defaults about nine block loads in ten miss the
// cache, so a Get that reaches a table publishes two blocks and evicts
// two: per Get two probes for a duplicate, two inserts and two deletes.
// Under that churn the map's operations were about a tenth of readrandom's
// CPU, most of it scanning control words (docs/BENCHMARKS.md, issue 18).
//
// Layout: a power-of-two array of entries {key, slot id + 1}, slot 0
// marking an empty entry. A key's home entry is the top bits of its hash;
// a probe walks from home to the key or to the first empty entry.
// Removal shifts back each later entry of the run whose probe path passes
// the hole (backward-shift deletion), so there are no tombstones and a
// run only ever holds entries that belong to it. The array doubles when
// it would become more than half full and never shrinks: the shard's slot
// count bounds it.
//
// A blockIndex is guarded by its shard's lock.
type blockIndex struct {
	entries []blockIndexEntry
	shift   uint8 // 64 - log2(len(entries))
	n       int   // keys held
}

type blockIndexEntry struct {
	key  cacheKey
	slot int32 // slot id + 1; 0: empty
}

// blockIndexMinEntries is the array's first size.
const blockIndexMinEntries = 64

// home is k's home entry. The multipliers differ from Cache.shard's, so the
// bits that pick the shard do not also pick the entry.
func (x *blockIndex) home(k cacheKey) uint64 {
	return ((k.file*0xC2B2AE3D27D4EB4F ^ k.off) * 0x9E3779B97F4A7C15) >> x.shift
}

func (x *blockIndex) mask() uint64 { return uint64(len(x.entries) - 1) }

// get returns the slot id of k.
func (x *blockIndex) get(k cacheKey) (int32, bool) {
	if x.n == 0 {
		return 0, false
	}
	mask := x.mask()
	for i := x.home(k); ; i = (i + 1) & mask {
		e := &x.entries[i]
		if e.slot == 0 {
			return 0, false
		}
		if e.key == k {
			return e.slot - 1, true
		}
	}
}

// put adds k, which must be absent, at slot id.
func (x *blockIndex) put(k cacheKey, id int32) {
	if 2*(x.n+1) > len(x.entries) {
		x.grow()
	}
	x.place(blockIndexEntry{k, id + 1})
	x.n++
}

// place writes e at the first empty entry of its run.
func (x *blockIndex) place(e blockIndexEntry) {
	mask := x.mask()
	i := x.home(e.key)
	for x.entries[i].slot != 0 {
		i = (i + 1) & mask
	}
	x.entries[i] = e
}

// grow doubles the array (or makes the first) and places every key anew.
func (x *blockIndex) grow() {
	old := x.entries
	size := max(2*len(old), blockIndexMinEntries)
	x.entries = make([]blockIndexEntry, size)
	x.shift = uint8(64 - log2(size))
	for _, e := range old {
		if e.slot != 0 {
			x.place(e)
		}
	}
}

// remove deletes k if present.
func (x *blockIndex) remove(k cacheKey) {
	if x.n == 0 {
		return
	}
	mask := x.mask()
	hole := x.home(k)
	for {
		e := &x.entries[hole]
		if e.slot == 0 {
			return
		}
		if e.key == k {
			break
		}
		hole = (hole + 1) & mask
	}
	// An entry at j whose home is h probes h..j; it may fill the hole
	// when the hole lies on that path.
	for j := (hole + 1) & mask; x.entries[j].slot != 0; j = (j + 1) & mask {
		if (j-x.home(x.entries[j].key))&mask >= (j-hole)&mask {
			x.entries[hole] = x.entries[j]
			hole = j
		}
	}
	x.entries[hole] = blockIndexEntry{}
	x.n--
}

// each calls fn with the slot id of every key held.
func (x *blockIndex) each(fn func(id int32)) {
	for _, e := range x.entries {
		if e.slot != 0 {
			fn(e.slot - 1)
		}
	}
}

// log2 is the base-2 logarithm of the power of two n.
func log2(n int) int {
	b := 0
	for n > 1 {
		n >>= 1
		b++
	}
	return b
}
