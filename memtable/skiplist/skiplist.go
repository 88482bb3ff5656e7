// Package skiplist is the baseline memtable.Rep: RocksDB's InlineSkipList
// algorithm (memtable/inlineskiplist.h) with pointer links, registered as
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
// Memory: nodes, towers and key/value bytes are carved from chunks outside
// the Go heap, on transparent huge pages for memtables of 32 MiB or more
// (arena.go). A node is 64 bytes, one cache line: the links of levels 0-2,
// the key's first 16 bytes (searches compare the first 8 as one integer, so
// most comparisons never look further), the trailer, the lengths, and a
// pointer to the value (to the key and then the value when the key is
// longer than 16 bytes); the one node in 64 taller than 3 levels also gets
// a tower of the upper links in the next two cache lines. Per entry that is
// 64 bytes plus the value, plus the key when it is longer than 16 bytes.
// Keeping short keys in the node makes a scan take one cache miss per
// entry instead of two. The lists are released to a pool of chunks when
// their owner is done with them (memtable.Releaser). Measured with
// memtablerep_bench (500,000 entries, 128 MiB write buffer, 3 alternated
// runs), against 80-byte nodes in Go heap blocks: fillrandom 2.11-2.29 ->
// 1.80-2.08 us/op, readrandom 2.76-2.96 -> 1.88-1.96. Prev is a search from
// the top (O(log n)), as in RocksDB, since nodes have no back links.
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
// instructions and 5.21-5.23 M D1 misses here with the searches of this
// file, 677-681 M and 5.58-5.74 M with the generic ones; offsetskiplist
// went from 857-894 M to 975-1005 M instructions. So each list keeps its
// own search code; the two are kept alike by hand.
//
// Nothing here is persisted, so there is no on-disk format.
package skiplist

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/invariants"
	"github.com/godbbench/godbbench/memtable"
)

const (
	// maxHeight is InlineSkipList's default max_height.
	maxHeight = 12
	// inlineLinks levels live in the node itself; a node taller than that
	// (one in 64) keeps the rest in a tower.
	inlineLinks = 3
	// nodeSize and towerSize are what a node and a tower take in the node
	// stream: whole cache lines, so every node starts on one.
	nodeSize  = 64
	towerSize = 128
	// tallBit in node.keyLen marks a node whose kv is a *tower.
	tallBit = 1 << 31
)

func init() {
	memtable.Register([]string{"skiplist", "skip_list", "SkipListFactory"},
		func(cfg memtable.Config) (memtable.Rep, error) { return NewSized(cfg.WriteBufferSize), nil })
}

// node is one internal key, exactly one 64-byte cache line: the links of
// levels 0-2, the key's first 16 bytes (searches compare the first 8 as
// one integer), the trailer, the lengths and the pointer to the rest.
// Everything a search or a scan reads while passing a node is in that
// line; keys of up to inlineKey bytes need nothing else, so a scan takes
// one cache miss per node. Levels 3 and up live in a tower, which also
// takes over the kv pointer, so the node stays at 64 bytes.
type node struct {
	next [inlineLinks]atomic.Pointer[node]
	// ikey is the key's first inlineKey bytes, zero-padded; its first 8,
	// read big-endian, are the prefix searches compare first.
	ikey    [inlineKey]byte
	trailer base.Trailer
	keyLen  uint32 // the key's length, | tallBit when kv is a *tower
	valLen  uint32
	// kv is the value when the key fits in ikey, else the key then the
	// value (nil when there is nothing to store there); for a tall node it
	// is the *tower, which holds that pointer instead.
	kv unsafe.Pointer
}

// tower holds a tall node's links of levels inlineLinks and up, and its kv.
type tower struct {
	upper [maxHeight - inlineLinks]atomic.Pointer[node]
	kv    *byte
}

// The node is one cache line and a tower fits its slot; a change that
// breaks this fails to compile.
var (
	_ [nodeSize - unsafe.Sizeof(node{})]byte
	_ [unsafe.Sizeof(node{}) - nodeSize]byte
	_ [towerSize - unsafe.Sizeof(tower{})]byte
)

// inlineKey is the longest key kept in the node: db_bench's default
// key_size (16).
const inlineKey = 16

func (n *node) prefix() uint64 { return binary.BigEndian.Uint64(n.ikey[:8]) }

func (n *node) klen() uint32 { return n.keyLen &^ tallBit }

// kvBytes is where the key (when long) and the value are.
func (n *node) kvBytes() *byte {
	if n.keyLen&tallBit != 0 {
		return (*tower)(n.kv).kv
	}
	return (*byte)(n.kv)
}

// link returns node n's link at level i.
func (n *node) link(i int) *atomic.Pointer[node] {
	if i < inlineLinks {
		return &n.next[i]
	}
	return &(*tower)(n.kv).upper[i-inlineLinks]
}

func (n *node) key() []byte {
	kl := n.klen()
	if kl <= inlineKey {
		return n.ikey[:kl:kl]
	}
	return unsafe.Slice(n.kvBytes(), kl)
}

func (n *node) value() []byte {
	if n.valLen == 0 {
		return nil
	}
	kl := n.klen()
	if kl <= inlineKey {
		return unsafe.Slice(n.kvBytes(), n.valLen)
	}
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(n.kvBytes()), kl)), n.valLen)
}

// lookup is an internal key being searched for, with its prefix computed once.
type lookup struct {
	key     []byte
	prefix  uint64
	trailer base.Trailer
}

func newLookup(key []byte, trailer base.Trailer) lookup {
	return lookup{key: key, prefix: base.KeyPrefix(key), trailer: trailer}
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
	return base.CompareTrailers(n.trailer, t.trailer)
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
	headTower tower
	height    atomic.Int32
	count     atomic.Int64

	// spliceBusy guards seqSplice: an Add that wins the CAS 0->1 reuses it,
	// others use a splice on their own stack.
	spliceBusy atomic.Uint32
	seqSplice  splice

	a        *arena
	cleanup  runtime.Cleanup // frees the arena if the list is dropped unreleased
	released atomic.Bool
}

var _ memtable.Releaser = (*List)(nil)

// New returns an empty list sized for a large memtable (2 MiB chunks).
func New() *List { return NewSized(0) }

// NewSized returns an empty list for a memtable of writeBufferSize bytes
// (0: unknown, taken as large), which picks its chunk size (arena.go).
func NewSized(writeBufferSize uint64) *List {
	l := &List{a: newArena(writeBufferSize)}
	l.head.keyLen = tallBit
	l.head.kv = unsafe.Pointer(&l.headTower)
	l.height.Store(1)
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
	for i := range l.head.next {
		l.head.next[i].Store(nil)
	}
	for i := range l.headTower.upper {
		l.headTower.upper[i].Store(nil)
	}
	go l.a.release()
}

// Len implements memtable.Rep.
func (l *List) Len() int64 { return l.count.Load() }

// ApproximateMemoryUsage implements memtable.Rep: the bytes of every chunk
// mapped so far.
func (l *List) ApproximateMemoryUsage() uint64 {
	return l.a.allocated.Load() + uint64(unsafe.Sizeof(*l))
}

// Add implements memtable.Rep. It returns an error only for a key of 2 GiB
// or more.
func (l *List) Add(seq uint64, kind base.Kind, key, value []byte) error {
	if len(key) >= tallBit || len(value) > math.MaxUint32 {
		return fmt.Errorf("skiplist: a %d-byte key or %d-byte value is too large", len(key), len(value))
	}
	h := memtable.RandomHeight(maxHeight)
	var kv unsafe.Pointer
	if n := len(value) + len(key)*boolInt(len(key) > inlineKey); n > 0 {
		p, err := l.a.alloc(streamBytes, uintptr(n))
		if err != nil {
			return err
		}
		b := unsafe.Slice((*byte)(p), n)
		if len(key) > inlineKey {
			copy(b, key)
			b = b[len(key):]
		}
		copy(b, value)
		kv = p
	}
	size := uintptr(nodeSize)
	if h > inlineLinks {
		size += towerSize
	}
	p, err := l.a.alloc(streamNodes, size)
	if err != nil {
		return err
	}
	x := (*node)(p)
	copy(x.ikey[:], key)
	x.keyLen, x.valLen = uint32(len(key)), uint32(len(value))
	x.trailer = base.MakeTrailer(seq, kind)
	if h > inlineLinks {
		t := (*tower)(unsafe.Add(p, nodeSize))
		t.kv = (*byte)(kv)
		x.kv = unsafe.Pointer(t)
		x.keyLen |= tallBit
	} else {
		x.kv = kv
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
			if invariants.Enabled && i == 0 {
				l.checkFits(x, sp.prev[0], sp.next[0])
			}
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
func (l *List) Get(key []byte, snapshot uint64) ([]byte, base.Kind, bool) {
	t := newLookup(key, base.SeekTrailer(snapshot))
	n := l.findGreaterOrEqual(&t)
	if n == nil || !bytes.Equal(n.key(), key) {
		return nil, 0, false
	}
	return n.value(), n.trailer.Kind(), true
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
