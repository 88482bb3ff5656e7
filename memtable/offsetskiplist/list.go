// Package offsetskiplist is a memtable.Rep after ToplingDB's OffsetSkipList:
// RocksDB's InlineSkipList algorithm whose links are uint32 offsets into one
// pointer-free arena, with one node per user key holding that key's versions.
// It registers as "offset_skiplist" and "OffsetSkipList"; Config.MemCap
// bounds the arena (default 2 GiB, at most 16 GiB).
//
// # Arena layout
//
// Every object lives in the arena (see arena.go) and is addressed by a
// uint32 offset in 4-byte units; offset 0 is nil. All fields are
// little-endian machine words at 4-byte alignment.
//
// A node of height h, referenced by the offset of its level-0 link, is
// allocated in the node stream (see arena.go):
//
//	-4*(h-1)  next[h-1] ... next[1]   u32 each, higher levels before the node
//	 0        next[0]                 u32
//	 4        keyLen                  u32
//	 8        versions                u32  offset of the newest version record
//	12        key bytes               keyLen bytes, zero-padded to 4
//	          first version record    (below), in the same allocation
//
// A version record:
//
//	 0  trailer  u64  base.Trailer, seq<<8 | kind (two u32 words, low word first)
//	 8  next     u32  offset of the next older version, 0 at the end
//	12  valLen   u32
//	16  valPos   u32  offset of the value bytes (0 when valLen is 0)
//
// Value bytes live in the value stream, padded to 4, so that nodes stay
// dense. A record for a second or later version of a key is allocated in
// the value stream too, immediately followed by its value.
//
// Example: key "ab", seq 7, kind Set, value "xyz", height 1, node at byte
// offset 0x40 (offset 0x10), value at byte offset 0x100000 (offset 0x40000):
//
//	0x40: 00 00 00 00               next[0] = nil
//	0x44: 02 00 00 00               keyLen 2
//	0x48: 14 00 00 00               versions = offset 0x14 (byte 0x50)
//	0x4c: 61 62 00 00               "ab" + padding
//	0x50: 01 07 00 00 00 00 00 00   trailer 7<<8|1
//	0x58: 00 00 00 00               next version = nil
//	0x5c: 03 00 00 00               valLen 3
//	0x60: 00 00 04 00               valPos 0x40000
//	0x100000: 78 79 7a 00           "xyz" + padding
//
// # Algorithm
//
// Inserts follow InlineSkipList::Insert with CAS linking: a splice (prev and
// next at every level) brackets the user key; the node is linked bottom-up
// with one CAS per level and a failed CAS recomputes that level only.
// Level 0 is the serialization point for a user key: if the search or a
// failed CAS finds the key already linked, the new version record is pushed
// into that node's version chain instead (the unused node header, 12 bytes
// plus key, is abandoned in the arena). The version chain is a singly linked
// list sorted by trailer descending; a version is published with one CAS on
// the link it is inserted at, so readers always see a sorted, consistent
// chain. The last splice is cached in the rep and reused by the next Add
// that claims it (one CAS), which makes ascending inserts O(1) comparisons.
//
// Height: branching factor 4, maximum 14 (OffsetSkipList's defaults).
//
// # Memory
//
// Per new user key: 12 bytes of header (level 0's link included) + 4 bytes
// per extra level (1.3 on average) + key + 20 bytes of version record +
// value, each padded to 4. With the 8-byte keys of memtablerep_bench and no
// value that is 12+1.3+8+20 = 41.3 bytes per entry, against 25.3 for
// package skiplist (InlineSkipList's node with 4-byte links: one node per
// version, no version record) and about 56 for Pebble's arenaskl (8 bytes
// per level for its back links).
// Extra versions of a key cost 20 bytes + value.
//
// The searches and the splice upkeep repeat memtable/skiplist's over
// offsets and user keys; one generic copy for both cost 9-17% more
// instructions here and 41% more there (measured, see skiplist's package
// doc), so each list keeps its own.
package offsetskiplist

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/invariants"
	"github.com/godbbench/godbbench/memtable"
)

const (
	// maxHeight is OffsetSkipList's default max_height.
	maxHeight = 14
	// DefaultMemCap is the arena capacity when Config.MemCap is 0
	// (OffsetSkipListFactory's mem_cap default).
	DefaultMemCap = 2 << 30

	nodeHeader  = 12 // next[0], keyLen, versions
	versionSize = 20 // trailer, next, valLen, valPos
	offKeyLen   = 4
	offVersions = 8
	offVerNext  = 8
	offVerLen   = 12
	offVerPos   = 16
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

func align4(n uint64) uint64 { return (n + 3) &^ 3 }

// splice brackets a user key at every level: key(prev[i]) < key <= key(next[i]).
type splice struct {
	prev   [maxHeight + 1]uint32
	next   [maxHeight + 1]uint32
	height int
}

// List is a concurrent offset skiplist memtable.
type List struct {
	a      *arena
	head   uint32
	height atomic.Int32
	count  atomic.Int64

	spliceBusy atomic.Uint32 // 0->1 CAS claims seqSplice
	seqSplice  splice

	cleanup  runtime.Cleanup // frees the arena if the list is dropped unreleased
	released atomic.Bool
}

var _ memtable.Releaser = (*List)(nil)

// Release implements memtable.Releaser: the arena's huge-page regions go to
// the chunk pool for the next lists, zeroed on a goroutine of their own. The list
// must not be used afterwards; its arena is dropped, so a use after Release
// panics instead of reading another list's memory. Later calls do nothing.
func (l *List) Release() {
	if !l.released.CompareAndSwap(false, true) {
		return
	}
	l.cleanup.Stop()
	a := l.a
	l.a = nil
	go a.release()
}

// New returns an empty list whose arena may grow to memCap bytes (0 means
// DefaultMemCap).
func New(memCap uint64) *List {
	if memCap == 0 {
		memCap = DefaultMemCap
	}
	l := &List{a: newArena(memCap)}
	// Values and keys handed out alias the arena and are valid for the
	// life of the List (memtable.Rep's contract); iterators hold the List.
	l.cleanup = runtime.AddCleanup(l, (*arena).free, l.a)
	// The head is a full-height node with an empty key that is never compared.
	off, err := l.a.alloc(4*(maxHeight-1)+nodeHeader, streamNodes)
	if err != nil {
		panic("offsetskiplist: arena cannot hold the head node") // newArena guarantees >= 64 KiB
	}
	l.head = off + maxHeight - 1
	l.height.Store(1)
	return l
}

// link returns level i's link word of node n.
func (l *List) link(n uint32, i int) *uint32 {
	return (*uint32)(unsafe.Add(l.a.addr(n), -4*i))
}

func (l *List) next(n uint32, i int) uint32 { return atomic.LoadUint32(l.link(n, i)) }

// key returns node n's user key, aliasing the arena.
func (l *List) key(n uint32) []byte {
	p := l.a.addr(n)
	kl := *(*uint32)(unsafe.Add(p, offKeyLen))
	return unsafe.Slice((*byte)(unsafe.Add(p, nodeHeader)), kl)
}

func (l *List) versions(n uint32) uint32 {
	return atomic.LoadUint32(l.a.word(n, offVersions))
}

func (l *List) trailer(v uint32) base.Trailer {
	p := l.a.addr(v)
	return base.Trailer(*(*uint32)(p)) | base.Trailer(*(*uint32)(unsafe.Add(p, 4)))<<32
}

func (l *List) nextVersion(v uint32) uint32 {
	return atomic.LoadUint32(l.a.word(v, offVerNext))
}

func (l *List) value(v uint32) []byte {
	p := l.a.addr(v)
	vl := *(*uint32)(unsafe.Add(p, offVerLen))
	if vl == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(l.a.addr(*(*uint32)(unsafe.Add(p, offVerPos)))), vl)
}

// keyAfter reports whether key sorts after node n's key; nil is +infinity.
func (l *List) keyAfter(key []byte, n uint32) bool {
	return n != 0 && compareKeys(l.key(n), key) < 0
}

// compareKeys is bytes.Compare with an inlined first step: when both keys
// have 8 bytes, their big-endian words decide most comparisons without the
// call into the runtime's general compare (about 5 ns of a 30-40 ns node
// visit whose cost is otherwise the cache miss on the node).
func compareKeys(a, b []byte) int {
	if len(a) >= 8 && len(b) >= 8 {
		x, y := binary.BigEndian.Uint64(a), binary.BigEndian.Uint64(b)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return bytes.Compare(a, b)
}

// Len implements memtable.Rep.
func (l *List) Len() int64 { return l.count.Load() }

// ApproximateMemoryUsage implements memtable.Rep: the arena's chunks plus
// its window table.
func (l *List) ApproximateMemoryUsage() uint64 {
	return l.a.allocated.Load() + uint64(len(l.a.windows))*8 + uint64(unsafe.Sizeof(*l))
}

// writeVersion fills the version record at v and copies value to pos.
func (l *List) writeVersion(v uint32, trailer base.Trailer, pos uint32, value []byte) {
	p := l.a.addr(v)
	*(*uint32)(p) = uint32(trailer)
	*(*uint32)(unsafe.Add(p, 4)) = uint32(trailer >> 32)
	*(*uint32)(unsafe.Add(p, offVerLen)) = uint32(len(value))
	*(*uint32)(unsafe.Add(p, offVerPos)) = pos
	if len(value) > 0 {
		copy(unsafe.Slice((*byte)(l.a.addr(pos)), len(value)), value)
	}
}

// Add implements memtable.Rep. It returns memtable.ErrFull when the arena
// cannot hold the entry; the list is unchanged then.
func (l *List) Add(seq uint64, kind base.Kind, key, value []byte) error {
	if uint64(len(key)) > maxArenaBytes || uint64(len(value)) > maxArenaBytes {
		return memtable.ErrFull
	}
	trailer := base.MakeTrailer(seq, kind)
	var err error
	if l.spliceBusy.CompareAndSwap(0, 1) {
		err = l.insert(key, trailer, value, &l.seqSplice)
		l.spliceBusy.Store(0)
	} else {
		var sp splice
		err = l.insert(key, trailer, value, &sp)
	}
	if err == nil {
		l.count.Add(1)
	}
	return err
}

// insert adds (key, trailer, value) using and updating splice sp.
func (l *List) insert(key []byte, trailer base.Trailer, value []byte, sp *splice) error {
	h := memtable.RandomHeight(maxHeight)
	maxH := int(l.height.Load())
	for h > maxH {
		if l.height.CompareAndSwap(int32(maxH), int32(h)) {
			maxH = h
			break
		}
		maxH = int(l.height.Load())
	}
	l.fixSplice(key, sp, maxH)

	// The user key exists already: only a version record is needed.
	if n := sp.next[0]; n != 0 && bytes.Equal(l.key(n), key) {
		// Record and value together, in the value stream: chains are
		// walked far less often than the node list.
		v, err := l.a.alloc(versionSize+align4(uint64(len(value))), streamValues)
		if err != nil {
			return err
		}
		l.writeVersion(v, trailer, v+versionSize/4, value)
		l.pushVersion(n, v, trailer)
		return nil
	}

	// A new node with its first version record in one allocation.
	klen := align4(uint64(len(key)))
	var pos uint32
	if len(value) > 0 {
		var err error
		if pos, err = l.a.alloc(align4(uint64(len(value))), streamValues); err != nil {
			return err
		}
	}
	off, err := l.a.alloc(4*uint64(h-1)+nodeHeader+klen+versionSize, streamNodes)
	if err != nil {
		return err
	}
	x := off + uint32(h-1)
	v := x + uint32((nodeHeader+klen)>>2)
	p := l.a.addr(x)
	*(*uint32)(unsafe.Add(p, offKeyLen)) = uint32(len(key))
	*(*uint32)(unsafe.Add(p, offVersions)) = v
	copy(unsafe.Slice((*byte)(unsafe.Add(p, nodeHeader)), len(key)), key)
	l.writeVersion(v, trailer, pos, value)

	valid := true
	for i := 0; i < h; i++ {
		for {
			if i == 0 && sp.next[0] != 0 && bytes.Equal(l.key(sp.next[0]), key) {
				// Another Add linked this user key first: join its chain.
				l.pushVersion(sp.next[0], v, trailer)
				return nil
			}
			if invariants.Enabled && i == 0 {
				l.checkFits(key, sp.prev[0], sp.next[0])
			}
			atomic.StoreUint32(l.link(x, i), sp.next[i])
			if atomic.CompareAndSwapUint32(l.link(sp.prev[i], i), sp.next[i], x) {
				break
			}
			sp.prev[i], sp.next[i] = l.findSpliceForLevel(key, sp.prev[i], 0, i)
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
	return nil
}

// fixSplice makes sp bracket key at levels 0..maxH-1, reusing the levels
// that still do (InlineSkipList's validation with allow_partial_splice_fix).
func (l *List) fixSplice(key []byte, sp *splice, maxH int) {
	recompute := 0
	if sp.height < maxH {
		sp.prev[maxH] = l.head
		sp.next[maxH] = 0
		sp.height = maxH
		recompute = maxH
	} else {
	scan:
		for recompute < maxH {
			p, n := sp.prev[recompute], sp.next[recompute]
			switch {
			case l.next(p, recompute) != n:
				recompute++
			case p != l.head && !l.keyAfter(key, p):
				for sp.prev[recompute] == p {
					recompute++
				}
			case l.keyAfter(key, n):
				for sp.next[recompute] == n {
					recompute++
				}
			default:
				break scan
			}
		}
	}
	for i := recompute - 1; i >= 0; i-- {
		sp.prev[i], sp.next[i] = l.findSpliceForLevel(key, sp.prev[i+1], sp.next[i+1], i)
	}
}

// findSpliceForLevel walks level from before until the next node's key is
// >= key (or is the known bound).
func (l *List) findSpliceForLevel(key []byte, before, bound uint32, level int) (uint32, uint32) {
	for {
		next := l.next(before, level)
		if next == bound || !l.keyAfter(key, next) {
			return before, next
		}
		before = next
	}
}

// pushVersion links version record v (already written) into node n's chain,
// keeping it sorted by trailer descending. One CAS publishes it.
func (l *List) pushVersion(n, v uint32, trailer base.Trailer) {
	at := l.a.word(n, offVersions)
	for {
		cur := atomic.LoadUint32(at)
		if invariants.Enabled && cur != 0 && l.trailer(cur).Seq() == trailer.Seq() {
			invariants.Violated("offsetskiplist: entry (%q, seq %d) added twice", l.key(n), trailer.Seq())
		}
		if cur != 0 && l.trailer(cur) > trailer {
			at = l.a.word(cur, offVerNext)
			continue
		}
		atomic.StoreUint32(l.a.word(v, offVerNext), cur)
		if atomic.CompareAndSwapUint32(at, cur, v) {
			return
		}
	}
}

// findGreaterOrEqual returns the first node whose key is >= key, or 0.
func (l *List) findGreaterOrEqual(key []byte) uint32 {
	x := l.head
	level := int(l.height.Load()) - 1
	var bigger uint32 // known >= key: skip comparing it again
	for {
		next := l.next(x, level)
		if next != 0 && next != bigger {
			c := compareKeys(l.key(next), key)
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

// findLast returns the last node whose key is < key (<= key when orEqual;
// any key when last), or 0 when there is none.
func (l *List) findLast(key []byte, orEqual, last bool) uint32 {
	x := l.head
	level := int(l.height.Load()) - 1
	for {
		next := l.next(x, level)
		if next != 0 {
			if last {
				x = next
				continue
			}
			c := compareKeys(l.key(next), key)
			if c < 0 || (orEqual && c == 0) {
				x = next
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
	n := l.findGreaterOrEqual(key)
	if n == 0 || !bytes.Equal(l.key(n), key) {
		return nil, 0, false
	}
	for v := l.versions(n); v != 0; v = l.nextVersion(v) {
		t := l.trailer(v)
		if t.Seq() <= snapshot {
			return l.value(v), t.Kind(), true
		}
	}
	return nil, 0, false
}
