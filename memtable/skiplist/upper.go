package skiplist

import "sync/atomic"

// The upper index lets a search skip the list's top levels, whose nodes
// are each a dependent cache miss: a search from the head visits about 4
// nodes a level (branching factor 4), some 37 nodes, one after another, in
// a list of 400,000 entries. The index is a sorted array of the key
// prefixes (base.KeyPrefix, the first 8 key bytes big-endian) and offsets
// of the nodes linked at level indexLevel, taken by a walk of that level;
// a binary search in it touches a few cache lines shared by all searches
// and finds the last indexed node before the key (a smaller prefix means a
// smaller key; only among nodes with the key's own prefix are keys
// compared). That node is linked at every level up to indexLevel, so the
// search goes on from it at indexLevel exactly as if it had come down to
// it from the head: the result is the same, and only the levels from
// indexLevel down are walked. The indexed node after it sorts at or after
// the key, so a search meeting it as a next node goes down without
// comparing.
//
// Nodes are never unlinked or moved, so an index taken at any moment stays
// correct; nodes linked since are found by the walk at indexLevel, which
// takes longer the more there are. Add rebuilds the index (on the adding
// goroutine, one builder at a time) each time the list has grown by half
// since the last build, from indexMinLen entries on: the builds of a list
// of n entries walk about 3n/4^indexLevel nodes in all, and at most a third
// of the nodes a search meets at indexLevel are newer than its index.
//
// Memory: 12 bytes per indexed node (one node in 4^indexLevel), with room
// for an eighth more, on the Go heap: at most 3.4 bytes an entry, counted
// by ApproximateMemoryUsage.
//
// Why level 1: BenchmarkSeek (400,000 entries, db_bench's 16-byte keys,
// random seeks), CPU ns per seek in 5 alternated rounds on a loaded
// 2-core machine: 2562-3603 searching from the head, 1521-2142 with an
// index of level 2, 1172-1624 with one of level 1.
const (
	indexLevel  = 1
	indexMinLen = 4096
)

// upperIndex is one build of the index; it is never modified once
// published.
type upperIndex struct {
	prefixes []uint64 // non-decreasing
	nodes    []uint32 // nodes[i] is the node of prefixes[i]
}

// firstAt returns the index of the first of the non-decreasing prefixes p
// that is at least prefix (above: greater than prefix), or len(p).
func firstAt(p []uint64, prefix uint64, above bool) int {
	lo, hi := 0, len(p)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if p[m] < prefix || above && p[m] == prefix {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// searchStart is where findGreaterOrEqual begins for t: the node from to
// go on from at level, and a node known to sort at or after t (0: none).
// With an index that is the last indexed node before t (the head when
// there is none) at indexLevel, and the indexed node after it. Indexed
// nodes whose prefix is t's are told apart by comparing their keys, a
// binary search over their run, so that keys sharing their first 8 bytes
// do not make the search walk the run.
func (l *List) searchStart(t *lookup) (from uint32, level int, bigger uint32) {
	ix := l.index.Load()
	if ix == nil {
		return headRef, int(l.height.Load()) - 1, 0
	}
	// nodes[:lo] < t and nodes[hi:] > t; the run between has t's prefix.
	lo := firstAt(ix.prefixes, t.Prefix, false)
	hi := lo + firstAt(ix.prefixes[lo:], t.Prefix, true)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cmp(l.r.addr(ix.nodes[m]), t) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	from = headRef
	if lo > 0 {
		from = ix.nodes[lo-1]
	}
	if lo < len(ix.nodes) {
		bigger = ix.nodes[lo]
	}
	return from, indexLevel, bigger
}

// indexGrown is called by Add with the list's new length n: it rebuilds
// the index when n has reached the next build's length and no other Add
// is building it.
func (l *List) indexGrown(n int64) {
	if n < l.indexAt.Load() || !l.indexBusy.CompareAndSwap(0, 1) {
		return
	}
	defer l.indexBusy.Store(0)
	if n < l.indexAt.Load() {
		return // another Add built it meanwhile
	}
	l.indexAt.Store(n + n/2)
	l.buildIndex()
}

// buildIndex walks level indexLevel and publishes the index of the nodes
// it finds. The list is at least indexLevel+1 high: it is called only from
// indexMinLen entries on, and a list that has never been that high keeps
// no index (the search then starts from the head).
func (l *List) buildIndex() {
	if int(l.height.Load()) <= indexLevel {
		return
	}
	// Room for the expected count and 1/8 more: a node is at level i
	// with probability 4^-i.
	n := l.count.Load() >> (2 * indexLevel)
	n += n/8 + 16
	ix := &upperIndex{prefixes: make([]uint64, 0, n), nodes: make([]uint32, 0, n)}
	r := l.r
	for n := link(r.addr(headRef), indexLevel).Load(); n != 0; {
		p := r.addr(n)
		ix.prefixes = append(ix.prefixes, lookupOf(p).Prefix)
		ix.nodes = append(ix.nodes, n)
		n = link(p, indexLevel).Load()
	}
	l.indexBytes.Store(uint64(cap(ix.prefixes))*8 + uint64(cap(ix.nodes))*4)
	l.index.Store(ix)
}

// upperFields are the List's fields for its index.
type upperFields struct {
	index      atomic.Pointer[upperIndex]
	indexAt    atomic.Int64  // the length at which Add next builds it
	indexBusy  atomic.Uint32 // 1 while an Add builds it
	indexBytes atomic.Uint64 // bytes of the published index's arrays
}
