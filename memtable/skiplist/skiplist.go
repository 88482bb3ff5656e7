// Package skiplist is the baseline memtable.Rep: RocksDB's InlineSkipList
// algorithm (memtable/inlineskiplist.h), registered as "skiplist",
// "skip_list" and "SkipListFactory".
//
// Contract: one node per internal key (user key, sequence, kind), ordered by
// user key ascending then sequence descending. Add is lock-free and may run
// from many goroutines: a node is linked bottom-up with one compare-and-swap
// per level, and a failed CAS recomputes only that level. Readers never
// block and see every Add whose level-0 CAS happened before their load.
//
// Parameters are RocksDB's defaults: maximum height 12, branching factor 4
// (each extra level with probability 1/4, so 1.33 links per node on average).
// A splice (the prev/next node at every level around an insert) is cached
// in the rep and reused by a later Add whose key follows it, which makes
// ascending inserts (fillseq) cost O(1) comparisons instead of O(log n);
// the rep keeps eight, for as many interleaved ascending streams
// (memtable/internal/splicecache).
//
// Memory: a node is one allocation holding its own levels' links (uint32
// offsets), a level-0 backward link, the trailer, and the key and value
// with varint lengths, the layout of InlineSkipList's node and memtable
// entry with 4-byte links (node.go); nodes are carved from chunks outside
// the Go heap, on transparent huge pages for memtables of 32 MiB or more
// (arena.go). For db_bench's 16-byte keys and no value that is 37.3 bytes
// an entry, where RocksDB 7.8.3 takes 49.1 (one writer: ConcurrentArena
// rounds a node to 8 bytes and its arena starts each on 16) or 42.7
// (concurrent writers, from a per-core shard): 8 bytes a level, 8 of
// sequence and type, the varint lengths. The lists are released to a pool
// of chunks when their owner is done with them (memtable.Releaser).
//
// Prev follows the backward link, which every insert sets on the node it
// links and on the node after it (Pebble's arenaskl keeps one the same
// way), and checks that its target's next link leads back; a concurrent
// insert that lost the race to set it leaves a link to an earlier node,
// and Prev walks forward from there, or searches from the top (as
// InlineSkipList does for every Prev) after a few steps.
//
// Scans: nodes lie in the arena in insertion order, so after random
// inserts each step of a scan is a cache miss (about 220 ns on the 2-vCPU
// VM of docs/BENCHMARKS.md, where the rest of a DB iterator's step over a
// memtable and a level takes some 150 ns). Next and Prev, on arriving at a
// node, prefetch the cache lines of the entry after it (Span of
// internal/prefetch, sized by the entry just reached: three lines
// for db_bench's 16-byte key and 100-byte value with the header), so that
// its miss overlaps the caller's work on the current entry. The walk stays
// one dependent load per node; only the wait moves under other work.
// db_bench's readseq and readreverse after updaterandom at --num=1000000
// (native engine, three processes, ten runs each alternating with and
// without the prefetch) had median runs 17-29% and 13-29% faster; lsm's
// BenchmarkScanMemtableOverLevel has the shape.
// A bare scan with no work between steps (memtablerep_bench's readseq,
// BenchmarkNextAmidWork/w0) is level with and without it.
//
// From a forward scan's 16th step on, walks ahead of it break the chain of
// misses (memtable/internal/scanahead): eight cursors each walk a segment
// of the list between two nodes of the level index, ahead of the scan, and
// each step of the scan moves two of them by one node, loading a link
// whose node was prefetched steps before and prefetching the node it
// names, so the walks' misses overlap one another and the scan finds its
// nodes cached. The walks stop when the nodes lie in the arena in key
// order. On a list of 400,000 entries filled in random order a bare Next
// (BenchmarkNextAmidWork/w0) takes 191-199 -> 67-85 ns; filled in key
// order (BenchmarkNextInOrder/w0) 16.1-16.2 -> 15.8-16.6 ns. Prev takes no
// walks (scanahead's doc says why).
//
// A search's misses are dependent loads, one node after another. From
// 4096 entries on, every search (Seek, Get, SeekForPrev, Last, and the
// splice search of an Add whose node is at most 2 levels high) skips the
// levels above 1: a sorted array of the key prefixes of the nodes at level
// 1, rebuilt by Add each time the list has grown by half, gives it the node
// to go on from (memtable/internal/levelindex, shared with
// memtable/offsetskiplist; upper.go; at most 3.4 bytes an entry more, on
// the Go heap). At each node a lookup, and an Add's splice search, also
// prefetches the node one level down (PREFETCHT0, amd64), which it visits
// next whenever the node to the right turns out to be past the key, so that
// miss overlaps the one of the comparison (in the splice search since
// 2026-12-06: memtablerep_bench fillrandom at 1M, item 50, 1.57 -> 1.47 CPU
// s, median of 10 alternated rounds).
//
// Why the searches are not shared with memtable/offsetskiplist, which runs
// the same InlineSkipList searches and splice upkeep over 32-bit offsets
// and user keys: one generic copy (type parameters for the node reference,
// the search key and the list's link and compare operations) was built and
// measured. Go compiles a generic function once per GC shape and calls a
// type parameter's methods through a dictionary, so every node visited
// cost two indirect calls that cannot be inlined (the link load and the
// compare), and their arguments spilled to the stack. Under cachegrind,
// which counts the same on a busy machine as on an idle one,
//
//	valgrind --tool=cachegrind ./memtablerep_bench --memtablerep=skip_list
//	    --benchmarks=fillrandom,readrandom --num_operations=100000
//
// (and the same with offset_skiplist) took, in 2 runs each, 477-488 M
// instructions and 5.21-5.23 M D1 misses with the searches of this
// package's pointer-linked version, 677-681 M and 5.58-5.74 M with the
// generic ones; offsetskiplist went from 857-894 M to 975-1005 M
// instructions. So each list keeps its own search code; the two are kept
// alike by hand.
//
// The list implements memtable.Pointed for the native engine's memtable
// point index (lsm/memtable_points.go): AddRef returns a node's offset,
// which stays valid for the life of the list, and GetFrom resumes a Get
// from such a node along level 0.
//
// Nothing here is persisted, so there is no on-disk format.
package skiplist

import (
	"bytes"
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/invariants"
	"github.com/godbbench/godbbench/internal/prefetch"
	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/memtable/internal/levelindex"
	"github.com/godbbench/godbbench/memtable/internal/scanahead"
	"github.com/godbbench/godbbench/memtable/internal/sortedrun"
	"github.com/godbbench/godbbench/memtable/internal/splicecache"
)

// maxHeight is InlineSkipList's default max_height.
const maxHeight = 12

func init() {
	memtable.Register([]string{"skiplist", "skip_list", "SkipListFactory"},
		func(cfg memtable.Config) (memtable.Rep, error) { return NewSized(cfg.WriteBufferSize), nil })
}

// after reports whether t sorts after the node at offset n; nil is
// +infinity.
func (r resolver) after(t *lookup, n uint32) bool {
	return n != 0 && cmp(r.addr(n), t) < 0
}

// splice brackets a key at levels 0 to height-1: prev[i] < key <= next[i],
// and next[i] was prev[i]'s link at level i; the levels were found by one
// search from the top down, so they nest (prev[i+1] <= prev[i], next[i] <=
// next[i+1]). prev[height] is the head and next[height] is nil: the top
// when height was the list's, else (a splice found through the upper
// index, height indexLevel+1) only an end mark for the scan of insert.
type splice struct {
	prev   [maxHeight + 1]uint32
	next   [maxHeight + 1]uint32
	height int
}

// List is a concurrent skiplist memtable.
type List struct {
	a      *arena
	r      resolver // a's
	height atomic.Int32
	scan   scanahead.Layout // the nodes as scans walk them ahead (iter.go)

	// What every Add writes is kept off the cache lines every search reads
	// (those above, and the index's pointer, which levelindex.Keeper pads
	// on its own): a reader running beside a writer would otherwise miss
	// on them at every search.
	_     [levelindex.Pad]byte
	count atomic.Int64
	// splices are the cached splices of the last inserts.
	splices splicecache.Cache[splice]

	index levelindex.Keeper // the index of the upper levels (upper.go)

	cleanup  runtime.Cleanup // frees the arena if the list is dropped unreleased
	released atomic.Bool
}

var (
	_ memtable.Releaser = (*List)(nil)
	_ memtable.Pointed  = (*List)(nil)
)

// New returns an empty list sized for a large memtable (2 MiB chunks).
func New() *List { return NewSized(0) }

// NewSized returns an empty list for a memtable of writeBufferSize bytes
// (0: unknown, taken as large), which picks its chunk size (arena.go).
func NewSized(writeBufferSize uint64) *List {
	a := newArena(writeBufferSize)
	l := &List{a: a, r: a.resolver}
	l.scan = scanahead.Layout{Windows: unsafe.Pointer(&a.windows[0]), Shift: windowShift, KeyOffset: offKey}
	l.height.Store(1)
	l.index.Init()
	// Keys and values handed out alias the arena and are valid for the
	// life of the List (memtable.Rep's contract); iterators hold the List.
	l.cleanup = runtime.AddCleanup(l, (*arena).free, l.a)
	return l
}

// Release implements memtable.Releaser: the list's chunks go to the pool
// for the next lists, zeroed on a goroutine of their own. The list must not
// be used afterwards; its head is cleared, so a search started after
// Release finds nothing rather than another list's memory. Later calls do
// nothing.
func (l *List) Release() {
	if !l.released.CompareAndSwap(false, true) {
		return
	}
	l.cleanup.Stop()
	l.index.Drop()
	head := l.r.addr(headRef)
	for i := 0; i < maxHeight; i++ {
		link(head, i).Store(0)
	}
	go l.a.release()
}

// Len implements memtable.Rep.
func (l *List) Len() int64 { return l.count.Load() }

// ApproximateMemoryUsage implements memtable.Rep: the bytes of every chunk
// mapped so far and of the upper index.
func (l *List) ApproximateMemoryUsage() uint64 {
	return l.a.allocated.Load() + l.index.Bytes() + uint64(unsafe.Sizeof(*l))
}

// Add implements memtable.Rep. It returns an error only for a key or value
// of 2 GiB or more, or when the list would pass 16 GiB.
func (l *List) Add(seq uint64, kind base.Kind, key, value []byte) error {
	_, err := l.AddRef(seq, kind, key, value)
	return err
}

// AddRef implements memtable.Pointed: Add, returning the node's offset.
func (l *List) AddRef(seq uint64, kind base.Kind, key, value []byte) (uint32, error) {
	if len(key) > math.MaxInt32 || len(value) > math.MaxInt32 {
		return 0, fmt.Errorf("skiplist: a %d-byte key or %d-byte value is too large", len(key), len(value))
	}
	h := memtable.RandomHeight(maxHeight)
	off, p, err := l.a.alloc(nodeSize(h, uint32(len(key)), uint32(len(value))))
	if err != nil {
		return 0, err
	}
	// The node's level-0 link is h-1 links into the allocation.
	x, xp := off+uint32(h-1), unsafe.Add(p, (h-1)*linkSize)
	writeNode(xp, base.MakeTrailer(seq, kind), key, value)
	t := lookupOf(xp)
	if i, sp := l.splices.Claim(t.Prefix); sp != nil {
		l.insert(x, h, &t, sp)
		l.splices.Release(i, t.Prefix)
	} else {
		var sp splice
		l.insert(x, h, &t, &sp)
	}
	l.indexGrown(l.count.Add(1))
	return x, nil
}

// insert links x (of height h, whose lookup is t) using and then updating
// splice sp. It is InlineSkipList::Insert<UseCAS=true> with
// allow_partial_splice_fix.
func (l *List) insert(x uint32, h int, t *lookup, sp *splice) {
	xp := l.r.addr(x)
	maxH := int(l.height.Load())
	for h > maxH {
		if l.height.CompareAndSwap(int32(maxH), int32(h)) {
			maxH = h
			break
		}
		maxH = int(l.height.Load())
	}
	recompute := 0
	if sp.height < h {
		// Never used, or not as high as x: search from scratch.
		recompute = l.restartSplice(t, sp, maxH, h)
	} else {
		// Find the lowest level that still brackets the key; levels below it
		// are recomputed. Stale or non-bracketing levels are skipped upward
		// (prev[sp.height], the head, and next[sp.height], nil, end the
		// inner loops); the levels above it nest, so they bracket it too.
	scan:
		for recompute < sp.height {
			p, n := sp.prev[recompute], sp.next[recompute]
			switch {
			case link(l.r.addr(p), recompute).Load() != n:
				recompute++
			case p != headRef && !l.r.after(t, p):
				for sp.prev[recompute] == p {
					recompute++
				}
			case l.r.after(t, n):
				for sp.next[recompute] == n {
					recompute++
				}
			default:
				break scan
			}
		}
		// A walk from a level above indexLevel+1 costs more than the
		// index's search.
		if recompute == sp.height || recompute > indexLevel+1 && h <= indexLevel+1 && l.index.Load() != nil {
			recompute = l.restartSplice(t, sp, maxH, h)
		}
	}
	for i := recompute - 1; i >= 0; i-- {
		sp.prev[i], sp.next[i] = l.findSpliceForLevel(t, sp.prev[i+1], sp.next[i+1], i)
	}
	valid := true
	for i := 0; i < h; i++ {
		for {
			if i == 0 {
				if invariants.Enabled {
					l.checkFits(x, sp.prev[0], sp.next[0])
				}
				prevLink(xp).Store(sp.prev[0])
			}
			link(xp, i).Store(sp.next[i])
			if link(l.r.addr(sp.prev[i]), i).CompareAndSwap(sp.next[i], x) {
				if i == 0 && sp.next[0] != 0 {
					// A later insert before next may have stored its own
					// node already; Prev copes with this older one.
					prevLink(l.r.addr(sp.next[0])).Store(x)
				}
				break
			}
			// Someone linked a node between prev and next at this level:
			// search again from prev, at this level only.
			sp.prev[i], sp.next[i] = l.findSpliceForLevel(t, sp.prev[i], 0, i)
			if i > 0 {
				valid = false
			}
		}
	}
	if valid {
		for i := 0; i < h; i++ {
			sp.prev[i] = x
		}
	} else {
		sp.height = 0
	}
}

// restartSplice makes sp bracket t at levels 0 to h-1 at least, from
// scratch, and returns the level below which it is still to be searched:
// from the last indexed node before t at indexLevel when h is at most
// indexLevel+1 (sp is then indexLevel+1 high), else from the head at the
// list's top level, maxH.
func (l *List) restartSplice(t *lookup, sp *splice, maxH, h int) int {
	if h <= indexLevel+1 && l.index.Load() != nil {
		from, level, bigger := l.searchStart(t, false, false)
		sp.prev[level], sp.next[level] = l.findSpliceForLevel(t, from, bigger, level)
		sp.prev[level+1], sp.next[level+1] = headRef, 0
		sp.height = level + 1
		return level
	}
	sp.prev[maxH] = headRef
	sp.next[maxH] = 0
	sp.height = maxH
	return maxH
}

// findSpliceForLevel walks level from before until the next node is at or
// after the key (or is the known bound after).
func (l *List) findSpliceForLevel(t *lookup, before, bound uint32, level int) (uint32, uint32) {
	r := l.r
	bp := r.addr(before)
	for {
		next := link(bp, level).Load()
		if next == bound || next == 0 {
			return before, next
		}
		if level > 0 {
			if down := link(bp, level-1).Load(); down != next && down != 0 {
				prefetch.Line(r.addr(down))
			}
		}
		np := r.addr(next)
		c := prefixCmp(np, t)
		if c == 0 {
			c = cmpAny(np, t)
		}
		if c >= 0 {
			return before, next
		}
		before, bp = next, np
	}
}

// findGreaterOrEqual returns the first node >= t, or 0.
func (l *List) findGreaterOrEqual(t *lookup) uint32 {
	r := l.r
	// bigger is known to be >= key: no need to compare it again.
	from, level, bigger := l.searchStart(t, false, false)
	x := r.addr(from)
	for {
		next := link(x, level).Load()
		if next != 0 && next != bigger {
			if level > 0 {
				// Should next be >= key, the search goes on from x one
				// level down: start loading that node while next's key
				// comes in, so the two misses overlap.
				if down := link(x, level-1).Load(); down != next && down != 0 {
					prefetch.Line(r.addr(down))
				}
			}
			np := r.addr(next)
			c := prefixCmp(np, t)
			if c == 0 {
				c = cmpAny(np, t)
			}
			if c < 0 {
				x = np
				continue
			}
			if c == 0 {
				return next
			}
		}
		if level == 0 {
			return next
		}
		bigger = next
		level--
	}
}

// findLast returns the last node that sorts before t, or not after it when
// orEqual; with last it returns the last node of the list (t unused). It
// returns 0 when there is no such node.
func (l *List) findLast(t *lookup, orEqual, last bool) uint32 {
	r := l.r
	// bigger is known to sort after t.
	x, level, bigger := l.searchStart(t, orEqual, last)
	xp := r.addr(x)
	for {
		next := link(xp, level).Load()
		if next != 0 && next != bigger {
			np := r.addr(next)
			if last {
				x, xp = next, np
				continue
			}
			if c := cmp(np, t); c < 0 || (orEqual && c == 0) {
				x, xp = next, np
				continue
			}
		}
		if level == 0 {
			if x == headRef {
				return 0
			}
			return x
		}
		level--
	}
}

// Get implements memtable.Rep.
func (l *List) Get(key []byte, snapshot uint64) ([]byte, base.Kind, bool) {
	t := sortedrun.NewTarget(key, base.SeekTrailer(snapshot))
	n := l.findGreaterOrEqual(&t)
	if n == 0 {
		return nil, 0, false
	}
	p := l.r.addr(n)
	if !bytes.Equal(keyOf(p), key) {
		return nil, 0, false
	}
	return valueOf(p), trailerOf(p).Kind(), true
}

// RefBound implements memtable.Pointed: a chunk starts a window of its
// own, a region bigger than a window takes consecutive ones, and window 0
// is the head's (arena.go).
func (l *List) RefBound(bytes uint64) uint64 {
	windows := 2 + bytes/l.a.chunkSize + bytes/windowSize
	return windows * windowSize / 4
}

// EachRef implements memtable.Pointed: a walk of level 0.
func (l *List) EachRef(fn func(ref uint32)) {
	for x := link(l.r.addr(headRef), 0).Load(); x != 0; {
		p := l.r.addr(x)
		next := link(p, 0).Load()
		if next != 0 {
			prefetch.Line(l.r.addr(next))
		}
		fn(x)
		x = next
	}
}

// EntryAt implements memtable.Pointed.
func (l *List) EntryAt(ref uint32) ([]byte, base.Trailer) {
	p := l.r.addr(ref)
	return keyOf(p), trailerOf(p)
}

// GetFrom implements memtable.Pointed: from node ref, a version of key at
// or before the one Get finds, it follows level 0 past the versions newer
// than snapshot. Every node it passes was linked at level 0 before ref's
// link to it was loaded, so the walk meets the versions of key in order.
func (l *List) GetFrom(ref uint32, key []byte, snapshot uint64) ([]byte, base.Kind, bool) {
	seek := base.SeekTrailer(snapshot)
	for ref != 0 {
		p := l.r.addr(ref)
		if !bytes.Equal(keyOf(p), key) {
			return nil, 0, false
		}
		if t := trailerOf(p); t <= seek {
			return valueOf(p), t.Kind(), true
		}
		ref = link(p, 0).Load()
	}
	return nil, 0, false
}
