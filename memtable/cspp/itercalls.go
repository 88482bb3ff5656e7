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
// Registration. The iterator holds one epoch registration (epoch.go) from
// the call that positions it until it stops being valid or Close is called
// (it implements memtable.Closer), so between calls the nodes and version
// blocks on its path cannot be reused and Next reads them in place: no
// registration and no copy per entry. A scan that keeps moving renews its
// registration every renewEvery steps, so it holds the epoch back for at
// most that many entries; a valid iterator left alone holds it until Close
// (see the package doc, "Reclamation", for what that costs). Close, or a
// renewal, first copies what the current entry needs (its key into buf; its
// tag and value location are copied by every step) and ends the
// registration; the next call registers again and, if the reclamation
// generation changed meanwhile (reclaim.go), re-seeks to the current (key,
// seq) from the root before stepping, which lands on the same entry because
// entries are never removed. An entry added behind the iterator while it
// moves is not seen, as in any walk; the Rep contract asks only for the Adds
// completed before the iterator was positioned.
type Iter struct {
	a     *arena
	stack []frame
	buf   []byte
	// inLeaf tells that the walk stands in a leaf that has no frame: node
	// leaf (header leafHdr) at the top frame's pos, reached by leafLabel,
	// with value pin leafPin. Its key is buf[:leafEnd] once built; leafEnd
	// is -1 until then (leafKey builds it from the arena).
	inLeaf    bool
	leafEnd   int
	leaf      uint32
	leafHdr   uint32
	leafLabel byte
	leafPin   uint32
	valid     bool
	// The current version vector of the walk: block, entry count and the
	// rank of the current entry in ascending tag order (num-1 is the
	// newest). For an unsorted block, order maps rank to entry index.
	blk, num, v uint32
	sorted      bool
	order       []uint32
	// stable is the current user key copied into slab; keyReady tells
	// whether it is up to date.
	stable   []byte
	slab     []byte
	keyReady bool
	// The current entry's tag and value location, copied by every step so
	// that Seq, Kind and Value need no registration.
	tag        base.Trailer
	voff, vlen uint32
	// reg is the registration held (nil when none). budget is the steps
	// left before Next or Prev must renew it; it is 0 whenever none is
	// held, so one test of it per step covers both.
	reg    *atomic.Uint64
	budget int
	// steps is the budget a registration starts with: renewEvery (tests
	// lower it to renew often).
	steps int
	// gen is the reclamation generation loaded by the last registration;
	// rkey holds the current key while re-seeking after it changed.
	gen   uint64
	rkey  []byte
	shard uint32
}

// renewEvery is how many Next and Prev steps an iterator takes on one
// registration. Renewing costs two atomic adds and a load (15 to 30 ns on
// the 2-core test machine), under 0.01 ns an entry at this interval, and a
// scan of 10M entries then lets the epoch move every few hundred
// microseconds.
const renewEvery = 4096

// slabSize is the allocation unit for stable key copies.
const slabSize = 8 << 10

var (
	_ memtable.Iter   = (*Iter)(nil)
	_ memtable.Closer = (*Iter)(nil)
)

// NewIter returns an unpositioned iterator. It holds nothing until it is
// positioned; the caller should Close it when done (memtable.Closer).
func (t *Trie) NewIter() memtable.Iter {
	it := &Iter{a: &t.a, stack: make([]frame, 0, 8), buf: make([]byte, 0, 64), steps: renewEvery}
	it.shard = bufShard(it.buf)
	return it
}

// acquire registers the iterator unless it holds a registration already,
// and reports whether the reclamation generation changed since its last
// registration (the offsets it kept may then have been reused).
func (it *Iter) acquire() (stale bool) {
	if it.reg != nil {
		return false
	}
	it.reg = it.a.rc.ep.enter(it.shard)
	it.budget = it.steps
	g := it.a.rc.gen.Load()
	stale = g != it.gen
	it.gen = g
	return stale
}

// release ends the registration, if one is held, after building the
// current leaf's key: once unregistered the iterator must not read the
// arena's nodes until it registers again.
func (it *Iter) release() {
	if it.reg == nil {
		return
	}
	if it.valid && it.inLeaf && it.leafEnd < 0 {
		it.leafKey()
	}
	leave(it.reg)
	it.reg, it.budget = nil, 0
}

// renew ends the registration held, if any, and registers again, re-seeking
// to the current entry when what the walk kept may have been reused. The
// iterator must be valid.
func (it *Iter) renew() {
	it.release()
	if it.acquire() {
		it.reseek()
	}
}

// Close ends the iterator's registration, letting the epoch move and the
// runs it stood on be reused. The iterator stays at its entry: Key, Seq,
// Kind and Value still answer, and the next call registers again (and
// re-seeks if needed). Close may be called any number of times.
func (it *Iter) Close() { it.release() }

// reseek repositions the walk at the current entry from the root.
func (it *Iter) reseek() {
	it.rkey = append(it.rkey[:0], it.curKey()...)
	ready := it.keyReady
	it.seek(it.rkey, it.tag.Seq())
	// The key is the same, so the stable copy made for it still holds.
	it.keyReady = ready && it.valid && string(it.curKey()) == string(it.rkey)
}

// settle finishes a walk step: it copies the entry the walk stands at, when
// ok, and otherwise ends the registration of an iterator that is no longer
// valid.
func (it *Iter) settle(ok bool) bool {
	if !ok {
		it.valid = false
		it.release()
		return false
	}
	it.loadEntry()
	return true
}

// loadEntry copies the tag and value location of the version of rank v.
func (it *Iter) loadEntry() {
	a := it.a
	e := it.entry(it.v)
	it.tag = base.Trailer(*a.slot(e + 1))<<32 | base.Trailer(*a.slot(e))
	it.voff, it.vlen = *a.slot(e + 2), *a.slot(e + 3)
}

// First positions at the smallest entry.
func (it *Iter) First() bool {
	it.acquire()
	it.reset()
	return it.settle(it.forward(-1))
}

// Last positions at the largest entry.
func (it *Iter) Last() bool {
	it.acquire()
	it.reset()
	return it.settle(it.backward(255))
}

// Seek positions at the first entry >= (key, seq).
func (it *Iter) Seek(key []byte, seq uint64) bool {
	it.acquire()
	return it.settle(it.seek(key, seq))
}

// SeekForPrev positions at the last entry <= (key, seq).
func (it *Iter) SeekForPrev(key []byte, seq uint64) bool {
	it.acquire()
	return it.settle(it.seekForPrev(key, seq))
}

// Next moves to the following entry: an older version of the same key, or
// the newest version of the next key. An older version and a next sibling
// leaf are taken in place (siblingLeaf); anything else walks the trie.
func (it *Iter) Next() bool {
	if it.budget--; it.budget < 0 {
		if !it.valid {
			it.budget = 0
			return false
		}
		it.renew()
	}
	if it.v > 0 {
		it.v--
		it.loadEntry()
		return true
	}
	if it.inLeaf && it.siblingLeaf() {
		return true
	}
	return it.settle(it.next())
}

// Prev moves to the preceding entry.
func (it *Iter) Prev() bool {
	if it.budget--; it.budget < 0 {
		if !it.valid {
			it.budget = 0
			return false
		}
		it.renew()
	}
	return it.settle(it.prev())
}

// Valid reports whether the iterator is at an entry.
func (it *Iter) Valid() bool { return it.valid }

// Key is the current user key. Its bytes are never overwritten.
func (it *Iter) Key() []byte {
	if !it.keyReady {
		it.stable = it.stableCopy(it.curKey())
		it.keyReady = true
	}
	return it.stable
}

// stableCopy copies key into the slab, where it is never overwritten.
func (it *Iter) stableCopy(key []byte) []byte {
	if cap(it.slab)-len(it.slab) < len(key) {
		it.slab = make([]byte, 0, max(slabSize, len(key)))
	}
	start := len(it.slab)
	it.slab = append(it.slab, key...)
	return it.slab[start:len(it.slab):len(it.slab)]
}

// Seq is the current entry's sequence number.
func (it *Iter) Seq() uint64 { return it.tag.Seq() }

// Kind is the current entry's kind.
func (it *Iter) Kind() base.Kind { return it.tag.Kind() }

// Value is the current entry's value; it lives in the arena, in a run that
// is never reused.
func (it *Iter) Value() []byte { return it.a.byteRange(it.voff, it.vlen) }
