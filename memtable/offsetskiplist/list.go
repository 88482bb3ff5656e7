// Package offsetskiplist is a memtable.Rep after ToplingDB's OffsetSkipList:
// RocksDB's InlineSkipList algorithm whose links are uint32 offsets into one
// pointer-free arena, with one node per user key holding that key's versions.
// It registers as "offset_skiplist" and "OffsetSkipList"; Config.MemCap
// bounds the arena (default 2 GiB, at most 16 GiB).
//
// # Layout
//
// Every object lives in the arena (arena.go) and is addressed by a uint32
// offset in 4-byte units; offset 0 is nil. A node (node.go) is InlineSkipList's
// node with 4-byte links followed by the user key and the value of the
// version it was made for; its 4-byte tag holds that version's sequence
// (relative to the list's first) and kind, so the 8-byte trailer package
// skiplist keeps in every node is not stored. A key's second and later
// versions go to a chain of version records (versions.go), which the tag
// then points to.
//
// # Algorithm
//
// Inserts follow InlineSkipList::Insert with CAS linking: a splice (prev and
// next at every level) brackets the user key; the node is linked bottom-up
// with one CAS per level and a failed CAS recomputes that level only.
// Level 0 is the serialization point for a user key: if the search or a
// failed CAS finds the key already linked, the new version goes into that
// node's versions instead (the unused node is abandoned in the arena). The
// rep caches the splices of its last inserts, eight of them for as many
// interleaved ascending streams (memtable/internal/splicecache, shared with
// memtable/skiplist); an Add that claims one (one CAS) starts from it, which
// makes ascending inserts O(1) comparisons. Searches
// compare user keys only, by their first 8 bytes as one integer before
// anything else.
//
// Prev follows a level-0 back link in each node (node.go), which the
// insert sets on the node it links and on the node after it, and checks
// that the node it names leads back; an insert that lost the race to set it
// leaves an earlier node there, from which Prev walks forward, or searches
// from the top (as OffsetSkipList does for every Prev) after a few steps.
//
// A lookup's misses are dependent loads, one node after another; at each
// node it also prefetches the node one level down (memtable/internal/
// prefetch), which it visits next whenever the node to the right is past
// the key, so that miss overlaps the comparison's. An Add's splice search
// does the same (memtablerep_bench fillrandom at 1M, item 50: 1.57 -> 1.48
// CPU s, median of 10 alternated rounds).
//
// From 4096 entries on, every search (Seek, Get, SeekForPrev, Last, and
// the splice search of an Add whose node is at most 2 levels high) skips
// the levels above 1: a sorted array of the key prefixes and offsets of the
// nodes at level 1, rebuilt by Add each time the list's entries have grown
// by half, gives it the node to go on from (memtable/internal/levelindex,
// shared with memtable/skiplist; upper.go).
//
// Height: branching factor 4, maximum 14 (OffsetSkipList's defaults).
//
// # Scans
//
// Nodes lie in the arena in insertion order, so after random inserts each
// node a scan reaches is a cache miss. Next and Prev, on arriving at a
// node, prefetch the node after it (before it, for Prev), sized by the
// node just reached (Span of internal/prefetch), as package
// skiplist does: the miss then overlaps the caller's work on the current
// entry. memtabletest's BenchRep on a 1M-entry list filled in random
// order, three alternated rounds: Next with 100 ns of work between steps
// (ScanAmidWork) 335-349 -> 230-231 ns a step, Prev (ReverseAmidWork)
// 311-338 -> 236-247, a bare Next over 200K entries 135-172 -> 81-106;
// memtablerep_bench's readseq at 1M, item 50, 82-86 -> 44-46 ms a scan.
//
// From a forward scan's 16th step on, walks ahead of it overlap its misses
// (memtable/internal/scanahead, shared with package skiplist): cursors
// walk the segments between the level index's nodes ahead of the scan,
// each move loading a link prefetched steps before, so the scan finds its
// nodes cached. BenchRep: Scan 141-144 -> 47-50 ns a step, ScanAmidWork
// 232-236 -> 175-188.
//
// # Memory
//
// Per new user key: 4 bytes a level (1.33 on average), 4 of back link, 4 of
// tag, the key and the value with varint lengths, padded to 4: 25.3 bytes
// for the 8-byte keys of memtablerep_bench and no value, against 29.3 for
// package skiplist (one node per version with an 8-byte trailer and a back
// link). A key's second
// version costs a 24-byte record for the first one plus 16 bytes and the
// value, padded to 8; each later one 16 bytes and the value. The upper
// index adds 12 bytes per level-1 node, with an eighth to spare, on the Go
// heap: at most 3.4 bytes an entry right after a build, 2.25 before the
// next (levelindex).
//
// The searches and the splice upkeep repeat memtable/skiplist's over user
// keys; one generic copy for both cost 9-17% more instructions here and 41%
// more there (measured, see skiplist's package doc), so each list keeps its
// own.
package offsetskiplist

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/invariants"
	"github.com/godbbench/godbbench/internal/prefetch"
	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/memtable/internal/levelindex"
	"github.com/godbbench/godbbench/memtable/internal/scanahead"
	"github.com/godbbench/godbbench/memtable/internal/splicecache"
)

const (
	// maxHeight is OffsetSkipList's default max_height.
	maxHeight = 14
	// DefaultMemCap is the arena capacity when Config.MemCap is 0
	// (OffsetSkipListFactory's mem_cap default).
	DefaultMemCap = 2 << 30
)

func init() {
	memtable.Register([]string{"offset_skiplist", "OffsetSkipList"}, func(cfg memtable.Config) (memtable.Rep, error) {
		return New(chooseMemCap(cfg.MemCap, cfg.WriteBufferSize)), nil
	})
}

// chooseMemCap is OffsetSkipListFactory's ChooseMemCap: the configured
// capacity, raised to min(2*wbs, wbs+1G, 16G) for a big write buffer.
func chooseMemCap(memCap, writeBufferSize uint64) uint64 {
	if memCap == 0 {
		memCap = DefaultMemCap
	}
	if writeBufferSize == 0 {
		return memCap
	}
	return max(memCap, min(2*writeBufferSize, writeBufferSize+1<<30, maxArenaBytes))
}

// splice brackets a user key at levels 0 to height-1: key(prev[i]) < key
// <= key(next[i]), and next[i] was prev[i]'s link at level i; the levels
// were found by one search from the top down, so they nest. prev[height]
// is the head and next[height] is nil: the top when height was the list's,
// else (a splice found through the upper index, height indexLevel+1) only
// an end mark for the scan of fixSplice.
type splice struct {
	prev   [maxHeight + 1]uint32
	next   [maxHeight + 1]uint32
	height int
}

// List is a concurrent offset skiplist memtable.
type List struct {
	a       *arena
	r       resolver // a's
	head    uint32
	scan    scanahead.Layout // the nodes as scans walk them ahead (iter.go)
	height  atomic.Int32
	seqBase atomic.Uint64 // the first Add's sequence; noBase before it

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

var _ memtable.Releaser = (*List)(nil)

// Release implements memtable.Releaser: the arena's huge-page regions go to
// the chunk pool for the next lists, zeroed on a goroutine of their own. The list
// must not be used afterwards; its arena and resolver are dropped, and Add,
// Get and NewIter panic on a released list instead of reading another
// list's memory. Later calls do nothing.
func (l *List) Release() {
	if !l.released.CompareAndSwap(false, true) {
		return
	}
	l.index.Drop()
	go l.detach().release()
}

// errReleased is the panic of a use after Release.
const errReleased = "offsetskiplist: use of a released list"

// detach stops the cleanup and drops the list's arena and resolver, and
// returns the arena.
func (l *List) detach() *arena {
	l.cleanup.Stop()
	a := l.a
	l.a, l.r = nil, resolver{}
	return a
}

// New returns an empty list whose arena may grow to memCap bytes (0 means
// DefaultMemCap).
func New(memCap uint64) *List {
	if memCap == 0 {
		memCap = DefaultMemCap
	}
	a := newArena(memCap)
	l := &List{a: a, r: a.resolver()}
	l.seqBase.Store(noBase)
	l.index.Init()
	// Values and keys handed out alias the arena and are valid for the
	// life of the List (memtable.Rep's contract); iterators hold the List.
	l.cleanup = runtime.AddCleanup(l, (*arena).free, l.a)
	// The head is a full-height node with an empty key that is never
	// compared. It is the arena's first allocation, so the node stream
	// owns the chunk that holds offset 0 (arena.go).
	off, err := l.a.alloc(nodeSize(maxHeight, 0, 0), streamNodes)
	if err != nil {
		panic("offsetskiplist: arena cannot hold the head node") // newArena guarantees >= 64 KiB
	}
	l.head = off + maxHeight - 1
	l.scan = scanahead.Layout{Windows: l.r.windows, Shift: windowShift, KeyOffset: offKey}
	l.height.Store(1)
	return l
}

// after reports whether t sorts after the node n at np; nil is +infinity.
func after(t *lookup, n uint32, np unsafe.Pointer) bool {
	return n != 0 && cmp(np, t) < 0
}

// Len implements memtable.Rep.
func (l *List) Len() int64 { return l.count.Load() }

// ApproximateMemoryUsage implements memtable.Rep: the arena's chunks, its
// window table and the upper index.
func (l *List) ApproximateMemoryUsage() uint64 {
	return l.a.allocated.Load() + uint64(len(l.a.windows))*8 + l.index.Bytes() + uint64(unsafe.Sizeof(*l))
}

// Add implements memtable.Rep. It returns memtable.ErrFull when the arena
// cannot hold the entry; the list is unchanged then.
func (l *List) Add(seq uint64, kind base.Kind, key, value []byte) error {
	if l.a == nil {
		panic(errReleased)
	}
	if uint64(len(key)) > maxArenaBytes || uint64(len(value)) > maxArenaBytes {
		return memtable.ErrFull
	}
	trailer := base.MakeTrailer(seq, kind)
	t := lookupFor(key)
	var err error
	if i, sp := l.splices.Claim(t.prefix); sp != nil {
		err = l.insert(&t, trailer, value, sp)
		l.splices.Release(i, t.prefix)
	} else {
		var sp splice
		err = l.insert(&t, trailer, value, &sp)
	}
	if err == nil {
		l.indexGrown(l.count.Add(1))
	}
	return err
}

// insert adds (t.key, trailer, value) using and updating splice sp.
func (l *List) insert(t *lookup, trailer base.Trailer, value []byte, sp *splice) error {
	key := t.key
	h := memtable.RandomHeight(maxHeight)
	maxH := int(l.height.Load())
	for h > maxH {
		if l.height.CompareAndSwap(int32(maxH), int32(h)) {
			maxH = h
			break
		}
		maxH = int(l.height.Load())
	}
	l.fixSplice(t, sp, maxH, h)

	// The user key exists already: only a version is added.
	if n := sp.next[0]; n != 0 {
		if np := l.r.addr(n); sameKey(np, t) {
			return l.addVersion(n, np, trailer, value)
		}
	}

	// A new node, inline when the trailer fits its tag.
	off, err := l.a.alloc(nodeSize(h, uint32(len(key)), uint32(len(value))), streamNodes)
	if err != nil {
		return err
	}
	x := off + uint32(h-1)
	tag, ok := l.inlineTag(trailer)
	if !ok {
		if tag, err = l.newRecord(trailer, nil, x); err != nil {
			return err
		}
	}
	xp := l.r.addr(x)
	writeNode(xp, tag, key, value)

	valid := true
	for i := 0; i < h; i++ {
		for {
			if i == 0 {
				if invariants.Enabled {
					l.checkFits(t, sp.prev[0], sp.next[0])
				}
				prevLink(xp).Store(sp.prev[0])
			}
			link(xp, i).Store(sp.next[i])
			if link(l.r.addr(sp.prev[i]), i).CompareAndSwap(sp.next[i], x) {
				if i == 0 && sp.next[0] != 0 {
					// An insert linked right before next since may have
					// stored itself there already; Prev copes with the
					// older node this leaves.
					prevLink(l.r.addr(sp.next[0])).Store(x)
				}
				break
			}
			sp.prev[i], sp.next[i] = l.findSpliceForLevel(t, sp.prev[i], 0, i)
			if i > 0 {
				valid = false
			} else if n := sp.next[0]; n != 0 {
				// Another Add may have linked this user key first: join it.
				// (Before the first CAS, next[0] was checked above.)
				if np := l.r.addr(n); sameKey(np, t) {
					return l.addVersion(n, np, trailer, value)
				}
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
	return nil
}

// fixSplice makes sp bracket t at levels 0..h-1 at least in a list of
// maxH levels, reusing the levels that still do (InlineSkipList's
// validation with allow_partial_splice_fix); the levels above the lowest
// one that brackets t nest, so they bracket it too. Stale or
// non-bracketing levels are skipped upward (prev[sp.height], the head, and
// next[sp.height], nil, end the inner loops).
func (l *List) fixSplice(t *lookup, sp *splice, maxH, h int) {
	recompute := 0
	if sp.height < h {
		recompute = l.restartSplice(t, sp, maxH, h)
	} else {
	scan:
		for recompute < sp.height {
			p, n := sp.prev[recompute], sp.next[recompute]
			pp := l.r.addr(p)
			switch {
			case link(pp, recompute).Load() != n:
				recompute++
			case p != l.head && !after(t, p, pp):
				for sp.prev[recompute] == p {
					recompute++
				}
			case n != 0 && after(t, n, l.r.addr(n)):
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
		sp.prev[level+1], sp.next[level+1] = l.head, 0
		sp.height = level + 1
		return level
	}
	sp.prev[maxH] = l.head
	sp.next[maxH] = 0
	sp.height = maxH
	return maxH
}

// findSpliceForLevel walks level from before until the next node's key is
// >= t's (or is the known bound). Above level 0 it prefetches, at each node,
// the node one level down, where the walk of the level below starts should
// the next node's key be >= t's (as findGreaterOrEqual).
func (l *List) findSpliceForLevel(t *lookup, before, bound uint32, level int) (uint32, uint32) {
	bp := l.r.addr(before)
	for {
		next := link(bp, level).Load()
		if next == bound || next == 0 {
			return before, next
		}
		if level > 0 {
			if down := link(bp, level-1).Load(); down != next && down != 0 {
				prefetch.Line(l.r.addr(down))
			}
		}
		np := l.r.addr(next)
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

// findGreaterOrEqual returns the first node whose key is >= t's, or 0.
func (l *List) findGreaterOrEqual(t *lookup) uint32 {
	// bigger is known to be >= key: no need to compare it again.
	from, level, bigger := l.searchStart(t, false, false)
	x := l.r.addr(from)
	for {
		next := link(x, level).Load()
		if next != 0 && next != bigger {
			if level > 0 {
				// Should next's key be >= t's, the search goes on from x
				// one level down: start loading that node while next's
				// key comes in, so the two misses overlap.
				if down := link(x, level-1).Load(); down != next && down != 0 {
					prefetch.Line(l.r.addr(down))
				}
			}
			np := l.r.addr(next)
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

// findLast returns the last node whose key is < t's (<= when orEqual; any
// key when last, t unused), or 0 when there is none.
func (l *List) findLast(t *lookup, orEqual, last bool) uint32 {
	// bigger is known to sort after t.
	x, level, bigger := l.searchStart(t, orEqual, last)
	xp := l.r.addr(x)
	for {
		next := link(xp, level).Load()
		if next != 0 && next != bigger {
			np := l.r.addr(next)
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
			if x == l.head {
				return 0
			}
			return x
		}
		level--
	}
}

// Get implements memtable.Rep.
func (l *List) Get(key []byte, snapshot uint64) ([]byte, base.Kind, bool) {
	if l.a == nil {
		panic(errReleased)
	}
	t := lookupFor(key)
	n := l.findGreaterOrEqual(&t)
	if n == 0 {
		return nil, 0, false
	}
	np := l.r.addr(n)
	if !sameKey(np, &t) {
		return nil, 0, false
	}
	tag := tagOf(np).Load()
	if tag&chainBit == 0 {
		tr := l.inlineTrailer(tag)
		if tr.Seq() > snapshot {
			return nil, 0, false
		}
		return nodeValue(np), tr.Kind(), true
	}
	for ref := tag; ref != 0; {
		r := l.rec(ref)
		tr := recTrailer(r)
		if tr.Seq() <= snapshot {
			return l.recValue(r), tr.Kind(), true
		}
		ref = recNext(r).Load()
	}
	return nil, 0, false
}
