package skiplist

import "sync/atomic"

// spliceSlots is how many splices a list caches.
const spliceSlots = 8

// spliceCache holds the splices of recent inserts, so that an Add whose key
// follows one of them closely costs O(1) comparisons (insert fixes a
// splice from the lowest level that still brackets the key). One splice
// serves one ascending stream of keys; db_bench's fillseq with N threads
// is N such streams interleaved (every thread writes keys 0 to --num-1, each
// at its own pace), and with one splice each Add found it at another
// stream's key and searched again: the search was 19% of native fillseq's
// CPU at 8 threads and 1M keys.
//
// An Add takes the free slot whose last key's 8-byte prefix is the
// greatest one below its own key's (a stream's own slot, or the one of a
// stream just behind it), and slot 0 when none is below (keys that share
// their first 8 bytes all go through slot 0, the one splice of before).
// The choice is only a guess: insert checks every level of the splice
// against the list and repairs what no longer brackets the key, so any
// splice that once bracketed some key is correct to start from.
type spliceCache struct {
	// prefix[i] is the key prefix of the last insert through slots[i] (0
	// before the first one).
	prefix [spliceSlots]atomic.Uint64
	// busy[i] is 1 while an Add uses slots[i]; Adds that find their slot
	// busy use a splice of their own.
	busy  [spliceSlots]atomic.Uint32
	slots [spliceSlots]splice
}

// claim picks the slot for a key of prefix pfx and claims it; ok is false
// when that slot is in use.
func (c *spliceCache) claim(pfx uint64) (int, bool) {
	best, bestPfx := 0, uint64(0)
	found := false
	for i := range spliceSlots {
		if p := c.prefix[i].Load(); p < pfx && (!found || p > bestPfx) {
			best, bestPfx, found = i, p, true
		}
	}
	return best, c.busy[best].CompareAndSwap(0, 1)
}

// release records pfx as slot i's last key prefix and frees it.
func (c *spliceCache) release(i int, pfx uint64) {
	c.prefix[i].Store(pfx)
	c.busy[i].Store(0)
}
