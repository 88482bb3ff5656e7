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
// Memory: nodes, upper towers and key/value bytes are carved from large
// blocks (see slabAllocator). A node is 80 bytes: the links of levels 0-3,
// the key's first 16 bytes (searches compare the first 8 as one integer, so
// most comparisons never look further), the trailer, the lengths, and a
// pointer to the value (to the key and then the value when the key is
// longer than 16 bytes); the one node in 256 taller than 4 levels also gets
// a 64-byte tower. Per entry that is about 80 bytes plus the value, plus the
// key when it is longer than 16 bytes. Keeping short keys in the node made a
// scan take one cache miss per entry instead of two: db_bench readseq right
// after fillrandom (1M entries, default shape, native engine, 3 alternated
// runs) went from 2.25-2.52M to 3.42-3.57M entries/s, while fillrandom lost
// 0-8% (medians of 4 alternated runs 370K and 357K ops/s; memtablerep_bench
// fillrandom 2.75-2.87 -> 2.98-3.18 µs/op), the cost of the 8 bigger bytes. Nodes hold Go pointers, so the GC scans every
// node; package offsetskiplist avoids exactly that cost. Prev is a search
// from the top (O(log n)), as in RocksDB, since nodes have no back links.
//
// Nothing here is persisted, so there is no on-disk format.
package skiplist

import (
	"bytes"
	"encoding/binary"
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/memtable"
)

const (
	// maxHeight is InlineSkipList's default max_height.
	maxHeight = 12
	// inlineLinks levels live in the node itself.
	inlineLinks = 4
	// Block sizes of the allocators: 256 nodes (18 KiB), 64 upper towers
	// (4 KiB) and 1 MiB of key/value bytes. Bigger blocks only add slack.
	nodesPerBlock  = 256
	towersPerBlock = 64
	bytesPerBlock  = 1 << 20
)

func init() {
	memtable.Register([]string{"skiplist", "skip_list", "SkipListFactory"},
		func(memtable.Config) (memtable.Rep, error) { return New(), nil })
}

// node is one internal key. Everything a search reads while passing a node
// (links of levels 0-3, the key's first 8 bytes, the trailer) sits in its
// first 56 bytes, so most visits cost one cache line; the rest of the key is
// read only when the 8-byte prefixes are equal. Keys of up to inlineKey
// bytes live in the node itself (ikey), so a scan, which reads every key it
// passes, takes one cache miss per node instead of two (node, then key
// bytes elsewhere). Levels 4 and up (one node in 256) live in a separate
// tower.
type node struct {
	next [inlineLinks]atomic.Pointer[node]
	// ikey is the key's first inlineKey bytes, zero-padded; its first 8,
	// read big-endian, are the prefix searches compare first.
	ikey    [inlineKey]byte
	trailer uint64 // seq<<8 | kind
	keyLen  uint32
	valLen  uint32
	// kv is the value when the key fits in ikey, else the key then the
	// value (nil when there is nothing to store there).
	kv    *byte
	upper *[maxHeight - inlineLinks]atomic.Pointer[node]
}

// inlineKey is the longest key kept in the node: db_bench's default
// key_size (16).
const inlineKey = 16

func (n *node) prefix() uint64 { return binary.BigEndian.Uint64(n.ikey[:8]) }

// link returns node n's link at level i.
func (n *node) link(i int) *atomic.Pointer[node] {
	if i < inlineLinks {
		return &n.next[i]
	}
	return &n.upper[i-inlineLinks]
}

func (n *node) key() []byte {
	if n.keyLen <= inlineKey {
		return n.ikey[:n.keyLen:n.keyLen]
	}
	return unsafe.Slice(n.kv, n.keyLen)
}

func (n *node) value() []byte {
	if n.valLen == 0 {
		return nil
	}
	if n.keyLen <= inlineKey {
		return unsafe.Slice(n.kv, n.valLen)
	}
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(n.kv), n.keyLen)), n.valLen)
}

// keyPrefix packs a key's first 8 bytes big-endian. Keys whose prefixes
// differ compare as their prefixes do (a shorter key pads with zeros and is
// then a proper prefix of the other, hence smaller).
func keyPrefix(key []byte) uint64 {
	if len(key) >= 8 {
		return binary.BigEndian.Uint64(key)
	}
	var p uint64
	for i, c := range key {
		p |= uint64(c) << (56 - 8*i)
	}
	return p
}

// lookup is an internal key being searched for, with its prefix computed once.
type lookup struct {
	key     []byte
	prefix  uint64
	trailer uint64
}

func newLookup(key []byte, trailer uint64) lookup {
	return lookup{key: key, prefix: keyPrefix(key), trailer: trailer}
}

// cmp compares n with the internal key t.
func (n *node) cmp(t *lookup) int {
	if p := n.prefix(); p != t.prefix {
		if p < t.prefix {
			return -1
		}
		return 1
	}
	if c := bytes.Compare(n.key(), t.key); c != 0 {
		return c
	}
	switch {
	case n.trailer > t.trailer:
		return -1
	case n.trailer < t.trailer:
		return 1
	}
	return 0
}

// after reports whether (key, trailer) sorts after node n; nil is +infinity.
func after(t *lookup, n *node) bool {
	return n != nil && n.cmp(t) < 0
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
	headUpper [maxHeight - inlineLinks]atomic.Pointer[node]
	height    atomic.Int32
	count     atomic.Int64

	// spliceBusy guards seqSplice: an Add that wins the CAS 0->1 reuses it,
	// others use a splice on their own stack.
	spliceBusy atomic.Uint32
	seqSplice  splice

	nodes  slabAllocator[node]
	towers slabAllocator[[maxHeight - inlineLinks]atomic.Pointer[node]]
	bytes  slabAllocator[byte]
}

// New returns an empty list.
func New() *List {
	l := &List{}
	l.head.upper = &l.headUpper
	l.height.Store(1)
	l.nodes.blockLen = nodesPerBlock
	l.towers.blockLen = towersPerBlock
	l.bytes.blockLen = bytesPerBlock
	return l
}

func trailerOf(seq uint64, kind memtable.Kind) uint64 { return seq<<8 | uint64(kind) }

// Len implements memtable.Rep.
func (l *List) Len() int64 { return l.count.Load() }

// ApproximateMemoryUsage implements memtable.Rep: the bytes of every block
// allocated so far.
func (l *List) ApproximateMemoryUsage() uint64 {
	return l.nodes.allocated.Load() + l.towers.allocated.Load() + l.bytes.allocated.Load() +
		uint64(unsafe.Sizeof(*l))
}

// Add implements memtable.Rep. It never returns ErrFull.
func (l *List) Add(seq uint64, kind memtable.Kind, key, value []byte) error {
	h := memtable.RandomHeight(maxHeight)
	x := &l.nodes.alloc(1)[0]
	copy(x.ikey[:], key)
	switch {
	case len(key) > inlineKey:
		kv := l.bytes.alloc(len(key) + len(value))
		copy(kv, key)
		copy(kv[len(key):], value)
		x.kv = unsafe.SliceData(kv)
	case len(value) > 0:
		kv := l.bytes.alloc(len(value))
		copy(kv, value)
		x.kv = unsafe.SliceData(kv)
	}
	x.keyLen, x.valLen = uint32(len(key)), uint32(len(value))
	x.trailer = trailerOf(seq, kind)
	if h > inlineLinks {
		x.upper = &l.towers.alloc(1)[0]
	}
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
	t := lookup{key: x.key(), prefix: x.prefix(), trailer: x.trailer}
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
			case p.link(recompute).Load() != n:
				recompute++
			case p != &l.head && !after(&t, p):
				for sp.prev[recompute] == p {
					recompute++
				}
			case after(&t, n):
				for sp.next[recompute] == n {
					recompute++
				}
			default:
				break scan
			}
		}
	}
	for i := recompute - 1; i >= 0; i-- {
		sp.prev[i], sp.next[i] = l.findSpliceForLevel(&t, sp.prev[i+1], sp.next[i+1], i)
	}
	valid := true
	for i := 0; i < h; i++ {
		for {
			x.link(i).Store(sp.next[i])
			if sp.prev[i].link(i).CompareAndSwap(sp.next[i], x) {
				break
			}
			// Someone linked a node between prev and next at this level:
			// search again from prev, at this level only.
			sp.prev[i], sp.next[i] = l.findSpliceForLevel(&t, sp.prev[i], nil, i)
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
func (l *List) findSpliceForLevel(t *lookup, before, bound *node, level int) (*node, *node) {
	for {
		next := before.link(level).Load()
		if next == bound || !after(t, next) {
			return before, next
		}
		before = next
	}
}

// findGreaterOrEqual returns the first node >= (key, trailer), or nil.
func (l *List) findGreaterOrEqual(t *lookup) *node {
	x := &l.head
	level := int(l.height.Load()) - 1
	var bigger *node // known to be >= key: no need to compare again
	for {
		next := x.link(level).Load()
		if next != nil && next != bigger {
			c := next.cmp(t)
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
func (l *List) findLast(t *lookup, orEqual, last bool) *node {
	x := &l.head
	level := int(l.height.Load()) - 1
	for {
		next := x.link(level).Load()
		if next != nil {
			if last {
				x = next
				continue
			}
			c := next.cmp(t)
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
	t := newLookup(key, snapshot<<8|0xff)
	n := l.findGreaterOrEqual(&t)
	if n == nil || !bytes.Equal(n.key(), key) {
		return nil, 0, false
	}
	return n.value(), memtable.Kind(n.trailer & 0xff), true
}
