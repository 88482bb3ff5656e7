// Package splicecache keeps the splices of a skiplist memtable's recent
// inserts, so that an insert whose key follows one of them closely starts
// from it (O(1) comparisons) instead of searching from the top.
//
// A splice serves one ascending stream of keys. db_bench's fillseq with N
// threads is N such streams interleaved (every thread writes keys 0 to
// --num-1, each at its own pace); with one cached splice nearly every insert
// found it at another stream's key and searched again (19% of the native
// engine's CPU in fillseq at 8 threads and 1M keys).
//
// An insert claims the free slot whose last key's 8-byte prefix is the
// greatest one below its own key's (its stream's own slot, or that of a
// stream just behind it), and slot 0 when none is below, so keys that share
// their first 8 bytes all go through slot 0, as with one splice. The choice
// is only a guess: the lists check every level of a splice against the list
// and repair what no longer brackets the key, so any splice that once
// bracketed some key is a correct start. A slot in use is not waited for:
// the insert uses a splice of its own.
//
// S is the list's splice type; the cache holds its splices in place.
package splicecache

import "sync/atomic"

// Slots is how many splices a Cache holds.
const Slots = 8

// Cache holds Slots splices of type S and the key prefix each was last used
// for. The zero Cache is ready: every slot free, every prefix 0.
type Cache[S any] struct {
	// prefix[i] is the key prefix of the last insert through slots[i].
	prefix [Slots]atomic.Uint64
	// busy[i] is 1 while an insert uses slots[i].
	busy  [Slots]atomic.Uint32
	slots [Slots]S
}

// Claim picks the slot for a key whose 8-byte prefix is pfx and claims it.
// It returns the slot's index and splice, or a nil splice when that slot is
// in use; a claimed slot must be given back with Release.
func (c *Cache[S]) Claim(pfx uint64) (int, *S) {
	best, bestPfx := 0, uint64(0)
	found := false
	for i := range Slots {
		if p := c.prefix[i].Load(); p < pfx && (!found || p > bestPfx) {
			best, bestPfx, found = i, p, true
		}
	}
	if !c.busy[best].CompareAndSwap(0, 1) {
		return best, nil
	}
	return best, &c.slots[best]
}

// Slot returns slot i's splice, for tests that look at what inserts left
// there.
func (c *Cache[S]) Slot(i int) *S { return &c.slots[i] }

// Release records pfx as slot i's last key prefix and frees the slot.
func (c *Cache[S]) Release(i int, pfx uint64) {
	c.prefix[i].Store(pfx)
	c.busy[i].Store(0)
}
