// Package levelindex is the index of a skiplist's level-1 nodes that
// memtable/skiplist and memtable/offsetskiplist search from: a sorted array
// of the key prefixes (base.KeyPrefix, the first 8 key bytes big-endian) and
// offsets of the nodes linked at level Level, taken by a walk of that level.
//
// A search from a skiplist's head visits about 4 nodes a level (branching
// factor 4), each a dependent cache miss: some 37 nodes one after another in
// a list of 400,000 entries. A binary search in the index touches a few
// cache lines shared by every search and finds the last indexed node before
// the key (a smaller prefix means a smaller key; only among nodes with the
// key's own prefix are keys compared, by a function the list passes, which
// is called for those nodes only). The search then goes on from that node
// at Level exactly as if it had come down to it from the head, and takes
// the indexed node after it as known to sort at or after the key.
//
// Contract. An index is a snapshot: it is never modified once published,
// and any number of goroutines may read it while the list grows. It is
// correct at any later moment because a list's nodes are never unlinked or
// moved, and because every node in it was found by a walk of level Level,
// so its level-Level compare-and-swap had happened, and with it (links are
// made bottom-up) every level below: a search that starts from an indexed
// node at Level and goes down meets only linked nodes, in order. Nodes
// linked after the build are found by the walk at Level, which takes longer
// the more there are. Keeper rebuilds the index (on the adding goroutine,
// one builder at a time) each time the list has grown by half since the
// last build, from MinLen entries on: the builds of a list of n entries
// walk about 3n/4^Level nodes in all, and at most a third of the nodes a
// search meets at Level are newer than its index.
//
// A build walks level Level from the head, a dependent miss a node; the
// nodes of the previous index, most of those it meets, are known ahead of
// the walk, so it prefetches them some distance ahead and only the nodes
// linked since the previous build are misses one after another.
//
// Layout: two arrays on the Go heap, index i describing the i-th node of
// level Level in key order when the index was built:
//
//	prefixes[i]  uint64  the node key's first 8 bytes as a big-endian
//	                     integer, a shorter key padded with zero bytes
//	nodes[i]     uint32  the node's offset (the list's own unit; never 0)
//
// and a summary, firsts[j] = prefixes[32*j], in which a search finds the
// block of 32 prefixes to search before it reads any of them (blockLen).
//
// Example: level-1 nodes of keys "ab" (offset 0x80001), "abcdefghij"
// (0x80019) and "b" (0x80040) give
//
//	prefixes = 0x6162000000000000, 0x6162636465666768, 0x6200000000000000
//	nodes    = 0x80001,            0x80019,            0x80040
//	firsts   = 0x6162000000000000
//
// and a search for "abc" (prefix 0x6162630000000000) goes on at Level from
// 0x80001 and takes 0x80019 as known to sort after it.
//
// Memory: 12.25 bytes per indexed node (one node in 4^Level, 8 of prefix,
// 4 of offset and a 32nd of a summary prefix), with room for an eighth
// more, on the Go heap: at most 3.5 bytes an entry at a build, falling to
// 2.3 as the list grows by half.
// During a build the previous index is also held: Bytes counts both while
// they are, so a list's ApproximateMemoryUsage never counts too little.
//
// Nothing here is persisted, so there is no on-disk format.
package levelindex

import (
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/prefetch"
	"github.com/godbbench/godbbench/memtable/internal/kvbytes"
)

const (
	// Level is the level whose nodes are indexed. BenchmarkSeek of
	// memtable/skiplist (400,000 entries, db_bench's 16-byte keys, random
	// seeks), CPU ns per seek in 5 alternated rounds on a loaded 2-core
	// machine: 2562-3603 searching from the head, 1521-2142 with an index
	// of level 2, 1172-1624 with one of level 1.
	Level = 1
	// MinLen is the list length of the first build: a smaller list is
	// searched from its head.
	MinLen = 4096
	// Pad is the bytes that keep fields on different cache lines: two
	// lines, as Intel's adjacent-line prefetcher fetches them in pairs.
	Pad = 128
	// prefetchAhead is how many nodes of the previous index a build
	// prefetches ahead of its walk.
	prefetchAhead = 8
)

// Index is one build of the index.
type Index struct {
	prefixes []uint64 // non-decreasing
	nodes    []uint32 // nodes[i] is the node of prefixes[i]
	// firsts[j] is prefixes[j*blockLen], the summary a search looks in
	// first (summarize).
	firsts []uint64
}

// blockLen is how many prefixes one entry of an index's summary stands
// for. A binary search over all the prefixes of a big list misses the cache
// on its last steps, one miss after another (a list of 10M entries has 2.5M
// indexed nodes, 20 MB of prefixes). The summary is a 32nd of that, so its
// lines stay cached far longer; it names the block that holds the answer,
// whose lines (and those of its nodes) the search then asks for all at
// once, so that their misses overlap, before the binary search within it.
// BenchmarkFind at 2.5M indexed nodes: 257-282 ns a search over every
// prefix, 224-230 through the summary; at a memtable's 107,000, level.
const blockLen = 32

// Len is the number of indexed nodes.
func (ix *Index) Len() int { return len(ix.nodes) }

// Node is indexed node i (0 <= i < Len), the i-th node of level Level when
// the index was built.
func (ix *Index) Node(i int) uint32 { return ix.nodes[i] }

// Prefix is the key prefix of indexed node i.
func (ix *Index) Prefix(i int) uint64 { return ix.prefixes[i] }

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

// summaryLen is the length of the summary of n prefixes.
func summaryLen(n int) int { return (n + blockLen - 1) / blockLen }

// summarize fills ix.firsts from ix.prefixes.
func (ix *Index) summarize() {
	ix.firsts = make([]uint64, 0, summaryLen(len(ix.prefixes)))
	for j := 0; j < len(ix.prefixes); j += blockLen {
		ix.firsts = append(ix.firsts, ix.prefixes[j])
	}
}

// lowerBound is firstAt(ix.prefixes, prefix, false), found through the
// summary: with t the first block whose first prefix is at least prefix,
// the answer lies in block t-1 past its first prefix (which is below
// prefix), or is block t's start.
func (ix *Index) lowerBound(prefix uint64) int {
	t := firstAt(ix.firsts, prefix, false)
	if t == 0 {
		return 0
	}
	lo, hi := (t-1)*blockLen+1, min(t*blockLen, len(ix.prefixes))
	if lo >= hi {
		return lo
	}
	// The block's prefixes (at most 248 bytes: two spans of up to four
	// lines) and the nodes Bracket reads for any answer in lo..hi.
	half := uintptr(hi-lo) * 8 / 2
	prefetch.Span(unsafe.Pointer(&ix.prefixes[lo]), half)
	prefetch.Span(unsafe.Add(unsafe.Pointer(&ix.prefixes[lo]), half), half)
	prefetch.Span(unsafe.Pointer(&ix.nodes[lo-1]), uintptr(hi-lo+1)*4+4)
	return lo + firstAt(ix.prefixes[lo:hi], prefix, false)
}

// Find returns how many indexed nodes sort before a key of the given
// prefix: those of a smaller prefix, and of those with the key's prefix
// the ones for which before returns true (it must be true for a node only
// if it is for every node before it: a binary search over their run).
// before is called only for nodes with the key's prefix, so that keys
// sharing their first 8 bytes do not make the search walk the run, and
// keys that do not cost no call.
func (ix *Index) Find(prefix uint64, before func(node uint32) bool) int {
	// nodes[:lo] sort before the key and nodes[hi:] after it; the run
	// between has its prefix.
	lo := ix.lowerBound(prefix)
	hi := lo
	if lo < len(ix.prefixes) && ix.prefixes[lo] == prefix {
		// A run: rare for distinct keys, so only then a second search.
		hi += firstAt(ix.prefixes[lo:], prefix, true)
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if before(ix.nodes[m]) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Bracket returns the nodes around position i of Find: from, the indexed
// node before it (head when i is 0), where a search goes on at Level, and
// bigger, the one at i (0 when i is Len), which sorts at or after the key.
func (ix *Index) Bracket(i int, head uint32) (from, bigger uint32) {
	from = head
	if i > 0 {
		from = ix.nodes[i-1]
	}
	if i < len(ix.nodes) {
		bigger = ix.nodes[i]
	}
	return from, bigger
}

// Keeper holds a list's published index and decides when to rebuild it.
// A zero Keeper builds at the first call of Build; Init makes it wait for
// MinLen entries.
type Keeper struct {
	// The pad keeps the fields every search and every Add read off the
	// cache line of whatever a list keeps before its Keeper (its insert
	// splice, written by every Add).
	_     [Pad]byte
	index atomic.Pointer[Index]
	at    atomic.Int64  // the length at which the next build runs
	busy  atomic.Uint32 // 1 while a build runs
	bytes atomic.Uint64 // bytes of the indexes' arrays held
}

// Init makes the first build run at MinLen entries.
func (k *Keeper) Init() { k.at.Store(MinLen) }

// Load returns the published index, or nil.
func (k *Keeper) Load() *Index { return k.index.Load() }

// Drop unpublishes the index (a released list's); searches then start from
// the head.
func (k *Keeper) Drop() { k.index.Store(nil) }

// Bytes is the memory the index takes: its arrays, and during a build
// those of the one being built too.
func (k *Keeper) Bytes() uint64 { return k.bytes.Load() }

// NextAt is the list length at which the next build runs.
func (k *Keeper) NextAt() int64 { return k.at.Load() }

// Stop makes the index never be rebuilt (for tests of a stale index).
func (k *Keeper) Stop() { k.at.Store(1<<63 - 1) }

// Due reports whether a list of n entries is due a build; the list then
// calls Build.
func (k *Keeper) Due(n int64) bool { return n >= k.at.Load() }

// Start is where a search of a list begins, for a key of the given prefix
// (before as for Index.Find): the node from to go on from at level, and a
// node known to sort at or after the key (0: none). With an index that is
// the last indexed node before the key at Level (the head when there is
// none) and the indexed node after it; without one, or for a key after every
// indexed node, the head at the list's top level. With before nil it is
// where the search for the list's last node begins: the last indexed node at
// Level, or the head at the top level.
func (k *Keeper) Start(head uint32, height *atomic.Int32, prefix uint64, before func(node uint32) bool) (from uint32, level int, bigger uint32) {
	ix := k.index.Load()
	if ix == nil || before == nil && len(ix.nodes) == 0 {
		return head, int(height.Load()) - 1, 0
	}
	if before == nil {
		return ix.nodes[len(ix.nodes)-1], Level, 0
	}
	i := ix.Find(prefix, before)
	if i == len(ix.nodes) {
		// After every indexed node: the nodes appended since the build
		// (all of them, when keys arrive in order) would be walked one by
		// one at Level, so search from the top instead.
		return head, int(height.Load()) - 1, 0
	}
	from, bigger = ix.Bracket(i, head)
	return from, Level, bigger
}

// Nodes is how Build reads a list's nodes, the layout memtable/skiplist
// and memtable/offsetskiplist share: a node is referred to by a uint32
// offset whose address holds its level-0 link; its level-i link, a uint32
// offset (0: nil), is 4*i bytes before that, and its key, a varint32
// length and the bytes (memtable/internal/kvbytes), KeyOffset bytes after.
// Addr is called only by a build, once a node of level Level, never by a
// search.
type Nodes struct {
	Head      uint32 // the head node, whose key is never read
	Addr      func(node uint32) unsafe.Pointer
	KeyOffset int
}

// link is the level-Level link of the node at p.
func link(p unsafe.Pointer) *atomic.Uint32 { return (*atomic.Uint32)(unsafe.Add(p, -Level*4)) }

// Build rebuilds the index for a list of n entries and height levels, by a
// walk of level Level, unless another build runs or has run since the list
// reached n. A list that is not above Level high keeps no index.
func (k *Keeper) Build(n int64, height int, list Nodes) {
	if !k.busy.CompareAndSwap(0, 1) {
		return
	}
	defer k.busy.Store(0)
	if n < k.at.Load() {
		return // another Add built it meanwhile
	}
	k.at.Store(n + n/2)
	if height <= Level {
		return
	}
	// Room for the expected count and 1/8 more: a node is at level i with
	// probability 4^-i.
	c := n >> (2 * Level)
	c += c/8 + 16
	ix := &Index{prefixes: make([]uint64, 0, c), nodes: make([]uint32, 0, c)}
	k.bytes.Add(arrayBytes(ix))
	// oldNodes[j] is the next node of the previous index the walk will
	// meet: every one of them is still linked at Level, in the same order.
	var oldNodes []uint32
	if old := k.index.Load(); old != nil {
		oldNodes = old.nodes
	}
	touch := func(x uint32) {
		p := list.Addr(x)
		prefetch.Line(unsafe.Add(p, -Level*4))
		prefetch.Line(unsafe.Add(p, list.KeyOffset+8))
	}
	for j := range min(prefetchAhead, len(oldNodes)) {
		touch(oldNodes[j])
	}
	j := 0
	for x := link(list.Addr(list.Head)).Load(); x != 0; {
		if j < len(oldNodes) && x == oldNodes[j] {
			if j+prefetchAhead < len(oldNodes) {
				touch(oldNodes[j+prefetchAhead])
			}
			j++
		}
		p := list.Addr(x)
		ix.prefixes = append(ix.prefixes, base.KeyPrefix(kvbytes.Key(unsafe.Add(p, list.KeyOffset))))
		ix.nodes = append(ix.nodes, x)
		x = link(p).Load()
	}
	k.bytes.Add(uint64(summaryLen(len(ix.prefixes))) * 8)
	ix.summarize()
	k.index.Store(ix)
	k.bytes.Store(arrayBytes(ix))
}

// arrayBytes is the memory of ix's arrays.
func arrayBytes(ix *Index) uint64 {
	return uint64(cap(ix.prefixes))*8 + uint64(cap(ix.nodes))*4 + uint64(cap(ix.firsts))*8
}
