// Package skiplist is the baseline memtable.Rep: RocksDB's InlineSkipList
// algorithm (memtable/inlineskiplist.h) in ordinary Go memory, registered as
// "skiplist", "skip_list" and "SkipListFactory".
//
// Contract: one node per internal key (user key, sequence, kind), ordered by
// user key ascending then sequence descending. Add is lock-free and may run
// from many goroutines: a node is linked bottom-up with one compare-and-swap
// per level, and a failed CAS recomputes only that level. Readers never
// block and see every Add whose level-0 CAS happened before their load.
//
// Parameters are RocksDB's defaults: maximum height 12, branching factor 4
// (each extra level with probability 1/4, so 1.33 links per node on average).
// A splice (the prev/next node at every level around the last insert) is
// cached in the rep and reused by the next Add that can claim it, which makes
// ascending inserts (fillseq) cost O(1) comparisons instead of O(log n).
//
// Memory: nodes, link towers and key/value bytes are carved from large
// blocks (see slabAllocator). Per entry that is a 64-byte node, 8 bytes per
// link level (10.7 bytes on average) and the key and value bytes: about
// 75 bytes plus key and value. The node holds Go pointers, so the GC scans
// every node; package offsetskiplist avoids exactly that cost. Prev is a
// search from the top (O(log n)), as in RocksDB, since nodes have no back
// links.
//
// Nothing here is persisted, so there is no on-disk format.
package skiplist

import (
	"bytes"
	"math/bits"
	"math/rand/v2"
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/memtable"
)

const (
	// maxHeight is InlineSkipList's default max_height.
	maxHeight = 12
	// Block sizes of the allocators: 256 nodes (16 KiB), 4096 links (32 KiB)
	// and 1 MiB of key/value bytes. Bigger blocks only add slack at the end.
	nodesPerBlock = 256
	linksPerBlock = 4096
	bytesPerBlock = 1 << 20
)

func init() {
	memtable.Register([]string{"skiplist", "skip_list", "SkipListFactory"},
		func(memtable.Config) (memtable.Rep, error) { return New(), nil })
}

// node is one internal key. kv holds the user key then the value.
type node struct {
	kv      []byte
	keyLen  uint32
	trailer uint64 // seq<<8 | kind
	next    []atomic.Pointer[node]
}

func (n *node) key() []byte   { return n.kv[:n.keyLen] }
func (n *node) value() []byte { return n.kv[n.keyLen:] }

// cmp compares n with the internal key (key, trailer).
func (n *node) cmp(key []byte, trailer uint64) int {
	if c := bytes.Compare(n.kv[:n.keyLen], key); c != 0 {
		return c
	}
	switch {
	case n.trailer > trailer:
		return -1
	case n.trailer < trailer:
		return 1
	}
	return 0
}

// after reports whether (key, trailer) sorts after node n; nil is +infinity.
func after(key []byte, trailer uint64, n *node) bool {
	return n != nil && n.cmp(key, trailer) < 0
}

// splice brackets a key at every level: prev[i] < key <= next[i].
// prev[height] is head and next[height] is nil.
type splice struct {
	prev   [maxHeight + 1]*node
	next   [maxHeight + 1]*node
	height int
}

// List is a concurrent skiplist memtable.
type List struct {
	head      node
	headLinks [maxHeight]atomic.Pointer[node]
	height    atomic.Int32
	count     atomic.Int64

	// spliceBusy guards seqSplice: an Add that wins the CAS 0->1 reuses it,
	// others use a splice on their own stack.
	spliceBusy atomic.Uint32
	seqSplice  splice

	nodes slabAllocator[node]
	links slabAllocator[atomic.Pointer[node]]
	bytes slabAllocator[byte]
}

// New returns an empty list.
func New() *List {
	l := &List{}
	l.head.next = l.headLinks[:]
	l.height.Store(1)
	l.nodes.blockLen = nodesPerBlock
	l.links.blockLen = linksPerBlock
	l.bytes.blockLen = bytesPerBlock
	return l
}

func trailerOf(seq uint64, kind memtable.Kind) uint64 { return seq<<8 | uint64(kind) }

// randomHeight draws a height with P(h > k) = 4^-k from one 32-bit random
// number: each pair of trailing zero bits is one more level.
func randomHeight() int {
	h := 1 + bits.TrailingZeros32(rand.Uint32()|1<<31)/2
	if h > maxHeight {
		h = maxHeight
	}
	return h
}

// Len implements memtable.Rep.
func (l *List) Len() int64 { return l.count.Load() }

// ApproximateMemoryUsage implements memtable.Rep: the bytes of every block
// allocated so far.
func (l *List) ApproximateMemoryUsage() uint64 {
	return l.nodes.allocated.Load() + l.links.allocated.Load() + l.bytes.allocated.Load() +
		uint64(unsafe.Sizeof(*l))
}

// Add implements memtable.Rep. It never returns ErrFull.
func (l *List) Add(seq uint64, kind memtable.Kind, key, value []byte) error {
	h := randomHeight()
	x := &l.nodes.alloc(1)[0]
	x.kv = l.bytes.alloc(len(key) + len(value))
	copy(x.kv, key)
	copy(x.kv[len(key):], value)
	x.keyLen = uint32(len(key))
	x.trailer = trailerOf(seq, kind)
	x.next = l.links.alloc(h)
	if l.spliceBusy.CompareAndSwap(0, 1) {
		l.insert(x, h, &l.seqSplice)
		l.spliceBusy.Store(0)
	} else {
		var sp splice
		l.insert(x, h, &sp)
	}
	l.count.Add(1)
	return nil
}

// insert links x (of height h) using and then updating splice sp. It is
// InlineSkipList::Insert<UseCAS=true> with allow_partial_splice_fix.
func (l *List) insert(x *node, h int, sp *splice) {
	key, trailer := x.key(), x.trailer
	maxH := int(l.height.Load())
	for h > maxH {
		if l.height.CompareAndSwap(int32(maxH), int32(h)) {
			maxH = h
			break
		}
		maxH = int(l.height.Load())
	}
	recompute := 0
	if sp.height < maxH {
		// Never used, or the list grew taller since: rebuild from the top.
		sp.prev[maxH] = &l.head
		sp.next[maxH] = nil
		sp.height = maxH
		recompute = maxH
	} else {
		// Find the lowest level that still brackets the key; levels below it
		// are recomputed. Stale or non-bracketing levels are skipped upward.
	scan:
		for recompute < maxH {
			p, n := sp.prev[recompute], sp.next[recompute]
			switch {
			case p.next[recompute].Load() != n:
				recompute++
			case p != &l.head && !after(key, trailer, p):
				for sp.prev[recompute] == p {
					recompute++
				}
			case after(key, trailer, n):
				for sp.next[recompute] == n {
					recompute++
				}
			default:
				break scan
			}
		}
	}
	for i := recompute - 1; i >= 0; i-- {
		sp.prev[i], sp.next[i] = l.findSpliceForLevel(key, trailer, sp.prev[i+1], sp.next[i+1], i)
	}
	valid := true
	for i := 0; i < h; i++ {
		for {
			x.next[i].Store(sp.next[i])
			if sp.prev[i].next[i].CompareAndSwap(sp.next[i], x) {
				break
			}
			// Someone linked a node between prev and next at this level:
			// search again from prev, at this level only.
			sp.prev[i], sp.next[i] = l.findSpliceForLevel(key, trailer, sp.prev[i], nil, i)
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

// findSpliceForLevel walks level from before until the next node is at or
// after the key (or is the known bound after).
func (l *List) findSpliceForLevel(key []byte, trailer uint64, before, bound *node, level int) (*node, *node) {
	for {
		next := before.next[level].Load()
		if next == bound || !after(key, trailer, next) {
			return before, next
		}
		before = next
	}
}

// findGreaterOrEqual returns the first node >= (key, trailer), or nil.
func (l *List) findGreaterOrEqual(key []byte, trailer uint64) *node {
	x := &l.head
	level := int(l.height.Load()) - 1
	var bigger *node // known to be >= key: no need to compare again
	for {
		next := x.next[level].Load()
		if next != nil && next != bigger {
			c := next.cmp(key, trailer)
			if c < 0 {
				x = next
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

// findLast returns the last node with cmp(key, trailer) < 0, or <= 0 when
// orEqual; with key == nil and last it returns the last node of the list.
// It returns nil when there is no such node.
func (l *List) findLast(key []byte, trailer uint64, orEqual, last bool) *node {
	x := &l.head
	level := int(l.height.Load()) - 1
	for {
		next := x.next[level].Load()
		if next != nil {
			if last {
				x = next
				continue
			}
			c := next.cmp(key, trailer)
			if c < 0 || (orEqual && c == 0) {
				x = next
				continue
			}
		}
		if level == 0 {
			if x == &l.head {
				return nil
			}
			return x
		}
		level--
	}
}

// Get implements memtable.Rep.
func (l *List) Get(key []byte, snapshot uint64) ([]byte, memtable.Kind, bool) {
	if snapshot > memtable.MaxSeq {
		snapshot = memtable.MaxSeq
	}
	n := l.findGreaterOrEqual(key, snapshot<<8|0xff)
	if n == nil || !bytes.Equal(n.key(), key) {
		return nil, 0, false
	}
	return n.value(), memtable.Kind(n.trailer & 0xff), true
}
