package cspp

import (
	"sync/atomic"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
)

// Iter walks a Trie in internal-key order: user keys ascending, and for each
// key its versions newest first. It rebuilds each user key in its own buffer
// from the path of labels and compressed paths, so the slice returned by Key
// would be valid only until the iterator moves. The Rep contract wants key
// bytes valid for the life of the Rep, so Key copies the rebuilt key once per
// user key into a slab the iterator owns and never overwrites: a 16-byte key
// costs 16 bytes of slab and one 8 KiB allocation per 512 keys, paid only by
// callers of Key. Values live in the arena, in runs that are never reused,
// and need no copy.
//
// Registration and read-ahead. Every call that reads the arena runs inside
// one epoch registration (two atomic adds, 15 to 30 ns on the 2-core test
// machine, as much as a whole in-cache Next used to cost). Between calls
// the iterator keeps node and block offsets; they stay valid while the
// reclamation generation is unchanged (reclaim.go), otherwise the next call
// re-seeks to the current (key, seq) from the root first, which lands on the
// same entry because entries are never removed. To keep forward scans from
// paying a registration per entry, Next reads ahead: each registered Next
// steps the walk over up to ahead entries (1, 2, 4, ... doubling up to
// maxAhead while Next is called in a row) and copies their tag, value
// location and user key into the iterator; the following Nexts hand them
// out without touching the arena. A Prev inside a read-ahead batch re-seeks to
// the current entry first (the walk stands at the batch's last entry). An
// entry added after the batch was read is not seen by that scan, as if the
// Next had run earlier; the Rep contract asks only for the Adds completed
// before the iterator was positioned.
type Iter struct {
	a     *arena
	stack []frame
	buf   []byte
	// inLeaf tells that the walk stands in a leaf that has no frame: the
	// child at the top frame's pos, with key buf[:leafEnd] and pin leafPin.
	inLeaf  bool
	leafEnd int
	leafPin uint32
	valid   bool
	// The current version vector of the walk: block, entry count and the
	// rank of the current entry in ascending tag order (num-1 is the
	// newest). For an unsorted block, order maps rank to entry index.
	blk, num, v uint32
	sorted      bool
	order       []uint32
	// walkNewKey tells whether the walk's last step changed the user key.
	walkNewKey bool
	// stable is the current user key copied into slab; keyReady tells
	// whether it is up to date.
	stable   []byte
	slab     []byte
	keyReady bool
	// The current entry, copied while registered: Seq, Kind and Value are
	// called between positioning calls, when the block may be reused.
	tag        base.Trailer
	voff, vlen uint32
	// Read-ahead: entries ahead[:aheadN], the current one ahead[aheadAt];
	// aheadN == 0 when the current entry is where the walk stands. With
	// aheadN > 0 the walk stands at ahead[aheadN-1], or past the last entry
	// when walkEnd is set.
	ahead       [maxAhead]aheadEntry
	aheadKeys   []byte
	aheadStable bool // the batch's keys are stable copies in the slab
	keyAsked    bool // Key was called since the last batch was read
	aheadN      int
	aheadAt     int
	nextAhead   int
	walkEnd     bool
	// gen is the reclamation generation loaded in the last registered call;
	// rkey holds the current key while re-seeking after it changed.
	gen   uint64
	rkey  []byte
	shard uint32
}

// aheadEntry is one entry read ahead: its tag, value location and user key
// (key, a stable copy, when the batch's aheadStable is set, otherwise
// aheadKeys[pStart:pEnd] followed by aheadKeys[kStart:kEnd]: a run of
// sibling leaves stores their common prefix once); newKey tells whether the key differs from the
// previous entry's.
type aheadEntry struct {
	tag          base.Trailer
	voff, vlen   uint32
	pStart, pEnd uint32
	kStart, kEnd uint32
	newKey       bool
	key          []byte
}

// maxAhead bounds the read-ahead: 32 entries amortize a registration to
// about 1 ns an entry for 1.8 KiB of iterator (plus the keys).
const maxAhead = 32

// slabSize is the allocation unit for stable key copies.
const slabSize = 8 << 10

var _ memtable.Iter = (*Iter)(nil)

// NewIter returns an unpositioned iterator.
func (t *Trie) NewIter() memtable.Iter {
	it := &Iter{a: &t.a, stack: make([]frame, 0, 8), buf: make([]byte, 0, 64)}
	it.shard = bufShard(it.buf)
	return it
}

// enterFresh registers for a call that positions from the root and drops
// any read-ahead.
func (it *Iter) enterFresh() *atomic.Uint64 {
	reg := it.a.rc.ep.enter(it.shard)
	it.gen = it.a.rc.gen.Load()
	it.aheadN, it.aheadAt, it.walkEnd, it.nextAhead = 0, 0, false, 1
	return reg
}

// curKey is the current entry's user key, prefix then suffix, in buffers
// the next call may overwrite.
func (it *Iter) curKey() (prefix, suffix []byte) {
	if it.aheadN > 0 {
		e := &it.ahead[it.aheadAt]
		if it.aheadStable {
			return nil, e.key
		}
		return it.aheadKeys[e.pStart:e.pEnd], it.aheadKeys[e.kStart:e.kEnd]
	}
	return nil, it.buf[:it.keyEnd()]
}

// appendCurKey appends the current entry's user key to dst.
func (it *Iter) appendCurKey(dst []byte) []byte {
	prefix, suffix := it.curKey()
	return append(append(dst, prefix...), suffix...)
}

// reseek repositions the walk at the current entry from the root and drops
// any read-ahead.
func (it *Iter) reseek() {
	it.rkey = it.appendCurKey(it.rkey[:0])
	it.dropAhead()
	ready := it.keyReady
	it.seek(it.rkey, it.tag.Seq())
	// The key is the same, so the stable copy made for it still holds.
	it.keyReady = ready && it.valid && string(it.buf[:it.keyEnd()]) == string(it.rkey)
}

// exitWalk copies the entry the walk stands at, when ok, and ends the
// registration.
func (it *Iter) exitWalk(reg *atomic.Uint64, ok bool) bool {
	if ok {
		e := it.entry(it.v)
		it.tag = it.a.entryTag(e)
		it.voff, it.vlen = it.a.slots[e+2], it.a.slots[e+3]
	}
	leave(reg)
	return ok
}

// First positions at the smallest entry.
func (it *Iter) First() bool {
	reg := it.enterFresh()
	it.reset()
	return it.exitWalk(reg, it.forward(-1))
}

// Last positions at the largest entry.
func (it *Iter) Last() bool {
	reg := it.enterFresh()
	it.reset()
	return it.exitWalk(reg, it.backward(255))
}

// Seek positions at the first entry >= (key, seq).
func (it *Iter) Seek(key []byte, seq uint64) bool {
	reg := it.enterFresh()
	return it.exitWalk(reg, it.seek(key, seq))
}

// SeekForPrev positions at the last entry <= (key, seq).
func (it *Iter) SeekForPrev(key []byte, seq uint64) bool {
	reg := it.enterFresh()
	return it.exitWalk(reg, it.seekForPrev(key, seq))
}

// Next moves to the following entry: an older version of the same key, or
// the newest version of the next key.
func (it *Iter) Next() bool {
	if !it.valid {
		return false
	}
	if it.aheadAt+1 < it.aheadN {
		it.aheadAt++
		it.useAhead()
		return true
	}
	if it.walkEnd {
		it.valid, it.aheadN, it.aheadAt, it.walkEnd = false, 0, 0, false
		return false
	}
	// Here the walk stands at the current entry.
	reg := it.a.rc.ep.enter(it.shard)
	if g := it.a.rc.gen.Load(); g != it.gen {
		it.gen = g
		it.reseek()
	}
	ok := it.valid && it.readAhead()
	leave(reg)
	return ok
}

// readAhead steps the walk over up to nextAhead entries and makes the first
// current. It returns false when there is no next entry. Where the keys go
// depends on the caller: if Key was called since the last batch, straight
// into the slab, where Key would copy them anyway; otherwise into
// aheadKeys, reused by every batch, and Key copies one into the slab only
// when asked (memtablerep_bench's readseq never asks: copying every key
// into fresh slab chunks made its scan 40% slower, copying every key twice
// made BenchmarkScan, which asks for every key, 8% slower).
func (it *Iter) readAhead() bool {
	want := it.nextAhead
	it.nextAhead = min(2*want, maxAhead)
	stable := it.keyAsked
	var key []byte
	if stable {
		key = it.Key() // the first entries may be versions of it
		it.aheadKeys = it.aheadKeys[:0]
	} else {
		// The current key may live in aheadKeys: through rkey.
		it.rkey = it.appendCurKey(it.rkey[:0])
		it.aheadKeys = append(it.aheadKeys[:0], it.rkey...)
	}
	it.keyAsked = false
	ready := it.keyReady
	kStart, kEnd := 0, len(it.aheadKeys)
	it.aheadN, it.aheadAt, it.walkEnd = 0, 0, false
	n := 0
	for n < want {
		// A run ends at a key with one version: the step after it moves to
		// a new key, so key, kStart and kEnd need no update.
		if m := it.leafRun(n, want, stable); m > n {
			n = m
			continue
		}
		if !it.next() {
			if n == 0 {
				return false
			}
			it.valid, it.walkEnd = true, true
			break
		}
		e := &it.ahead[n]
		x := it.entry(it.v)
		e.tag = it.a.entryTag(x)
		e.voff, e.vlen = it.a.slots[x+2], it.a.slots[x+3]
		e.newKey = it.walkNewKey
		switch {
		case stable:
			if it.walkNewKey {
				key = it.stableCopy(nil, it.buf[:it.keyEnd()])
			}
			e.key = key
		case it.walkNewKey:
			kStart = len(it.aheadKeys)
			it.aheadKeys = append(it.aheadKeys, it.buf[:it.keyEnd()]...)
			kEnd = len(it.aheadKeys)
			fallthrough
		default:
			e.pStart, e.pEnd = 0, 0
			e.kStart, e.kEnd = uint32(kStart), uint32(kEnd)
		}
		n++
	}
	it.aheadN, it.aheadStable = n, stable
	it.keyReady = ready
	it.useAhead()
	return true
}

// dropAhead leaves read-ahead mode; the caller makes the walk stand at the
// current entry, so keyReady keeps its meaning.
func (it *Iter) dropAhead() {
	it.aheadN, it.aheadAt, it.walkEnd = 0, 0, false
}

// useAhead makes ahead[aheadAt] the current entry.
func (it *Iter) useAhead() {
	e := &it.ahead[it.aheadAt]
	it.tag, it.voff, it.vlen = e.tag, e.voff, e.vlen
	if it.aheadStable {
		it.stable, it.keyReady = e.key, true
	} else if e.newKey {
		it.keyReady = false
	}
}

// Prev moves to the preceding entry.
func (it *Iter) Prev() bool {
	if !it.valid {
		return false
	}
	reg := it.a.rc.ep.enter(it.shard)
	g := it.a.rc.gen.Load()
	if g != it.gen || it.aheadN > 0 && (it.aheadAt+1 < it.aheadN || it.walkEnd) {
		// The walk may hold freed offsets, or stands past the current entry.
		it.gen = g
		it.reseek()
	}
	it.dropAhead()
	it.nextAhead = 1
	return it.exitWalk(reg, it.valid && it.prev())
}

// Valid reports whether the iterator is at an entry.
func (it *Iter) Valid() bool { return it.valid }

// Key is the current user key. Its bytes are never overwritten.
func (it *Iter) Key() []byte {
	it.keyAsked = true
	if !it.keyReady {
		prefix, suffix := it.curKey()
		it.stable = it.stableCopy(prefix, suffix)
		it.keyReady = true
	}
	return it.stable
}

// stableCopy copies the key prefix+suffix into the slab, where it is never
// overwritten.
func (it *Iter) stableCopy(prefix, suffix []byte) []byte {
	if n := len(prefix) + len(suffix); cap(it.slab)-len(it.slab) < n {
		it.slab = make([]byte, 0, max(slabSize, n))
	}
	start := len(it.slab)
	it.slab = append(it.slab, prefix...)
	it.slab = append(it.slab, suffix...)
	return it.slab[start:len(it.slab):len(it.slab)]
}

// Seq is the current entry's sequence number.
func (it *Iter) Seq() uint64 { return it.tag.Seq() }

// Kind is the current entry's kind.
func (it *Iter) Kind() base.Kind { return it.tag.Kind() }

// Value is the current entry's value; it lives in the arena, in a run that
// is never reused.
func (it *Iter) Value() []byte { return it.a.byteRange(it.voff, it.vlen) }
