package cspp

import (
	"runtime"
	"sync/atomic"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/hugemem"
	"github.com/godbbench/godbbench/internal/invariants"
	"github.com/godbbench/godbbench/memtable"
)

// DefaultMemCap is the arena size used when the configured capacity is not
// positive: 64 MiB, the db_bench write_buffer_size default.
const DefaultMemCap = 64 << 20

// minMemCap keeps room for the root and a few entries whatever is asked.
const minMemCap = 4 << 10

// Trie is a concurrent Patricia trie memtable. It implements memtable.Rep.
type Trie struct {
	a arena
	// region backs the arena when it is off the Go heap (nil otherwise, and
	// after Release); cleanup frees it if the trie is dropped unreleased.
	region   *hugemem.Region
	cleanup  runtime.Cleanup
	released atomic.Bool
}

var (
	_ memtable.Rep      = (*Trie)(nil)
	_ memtable.Releaser = (*Trie)(nil)
)

// Release implements memtable.Releaser: an off-heap arena goes to
// the region pool for the next trie of its size (see regionpool.go), zeroed on
// a goroutine of its own. The trie
// must not be used afterwards; its slices are dropped, so a use after
// Release panics instead of reading another trie's memory. Later calls do
// nothing. With invariants on, Release checks that no iterator still holds
// a registration: one that does was left valid and never closed.
func (t *Trie) Release() {
	if !t.released.CompareAndSwap(false, true) {
		return
	}
	if invariants.Enabled {
		if n := t.a.rc.ep.registered(); n != 0 {
			invariants.Violated("cspp: trie released with %d registrations held: an iterator was not closed", n)
		}
	}
	if t.region == nil {
		return
	}
	t.cleanup.Stop()
	r, used := t.region, t.a.used()*4
	t.region, t.a.slots, t.a.bytes = nil, nil, nil
	// Zeroing tens of MiB takes milliseconds; the caller may hold its DB's
	// mutex (a flush dropping its memtables) or be a reader.
	go regions.Put(r, int(used))
}

// New returns an empty trie whose arena holds memCap bytes (DefaultMemCap
// when memCap <= 0; at most 8 GiB). Add returns memtable.ErrFull once the
// arena is exhausted.
func New(memCap int64) *Trie {
	if memCap <= 0 {
		memCap = DefaultMemCap
	}
	if memCap < minMemCap {
		memCap = minMemCap
	}
	nslots := uint64(memCap) / 4
	if nslots > maxSlots {
		nslots = maxSlots
	}
	t := &Trie{}
	if region := t.a.init(nslots); region != nil {
		// Values handed out alias the arena and are valid for the life of
		// the Trie (memtable.Rep's contract); iterators hold the Trie.
		t.region = region
		t.cleanup = runtime.AddCleanup(t, func(r *hugemem.Region) { _ = r.Free() }, region)
	}
	t.a.slots[rootOffset] = makeHeader(classDirect, 0, 0)
	return t
}

// Registrations is the number of epoch registrations in progress: calls
// running, and iterators that hold one (valid and not closed). With no
// call running it counts the iterators left unclosed; tests of code that
// makes iterators check that it is 0.
func (t *Trie) Registrations() int { return t.a.rc.ep.registered() }

// Len is the number of entries added.
func (t *Trie) Len() int64 { return t.a.rc.ep.added() }

// ApproximateMemoryUsage is the high-water mark of arena bytes handed out
// (runs reused from free lists are counted once; retired runs not reused
// yet are included), plus the fixed overhead of the Trie.
// The reserved but untouched part of the arena is not counted: it is address
// space, not memory.
func (t *Trie) ApproximateMemoryUsage() uint64 {
	return t.a.used()*4 + 256
}

// Get returns the newest version of key with sequence <= snapshot. It takes
// no lock and allocates nothing: atomic loads of header, link and pin words,
// inside one epoch registration (the value bytes it returns are never
// reused, only nodes and version blocks are).
func (t *Trie) Get(key []byte, snapshot uint64) ([]byte, base.Kind, bool) {
	reg := t.a.rc.ep.enter(bufShard(key))
	v, kind, ok := t.a.get(key, snapshot)
	leave(reg)
	return v, kind, ok
}

func (a *arena) get(key []byte, snapshot uint64) ([]byte, base.Kind, bool) {
	n := uint32(rootOffset)
	i := 0
	for {
		h := a.load(n)
		if z := int(hdrZlen(h)); z > 0 {
			if len(key)-i < z || string(a.zpath(n, h)) != string(key[i:i+z]) {
				return nil, 0, false
			}
			i += z
		}
		if i == len(key) {
			pin := a.load(n + 1)
			if pin == 0 {
				return nil, 0, false
			}
			e, ok := a.visible(pin, snapshot)
			if !ok {
				return nil, 0, false
			}
			return a.entryValue(e), a.entryTag(e).Kind(), true
		}
		link := a.findChild(n, h, key[i])
		if link == 0 {
			return nil, 0, false
		}
		n = a.load(link)
		i++
	}
}
