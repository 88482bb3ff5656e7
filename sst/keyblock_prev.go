package sst

import "github.com/godbbench/godbbench/internal/base"

// Keys are prefix-compressed, so an entry can only be decoded from the
// restart point before it: without help, each step backwards rescans up
// to a whole restart interval (BlockRestartInterval decodes). A
// reverseCache keeps the entries of the interval the block iterator last
// scanned from its restart point, key bytes included, so that the next
// steps backwards within that interval are one lookup and one key copy
// each; a reverse scan then decodes every entry about once, as a forward
// scan does.
//
// The cache belongs to one key block: blockIter.init empties it, and every
// entry in it was decoded from that block without error.
//
// A table iterator's first rescan records nothing: db_bench's reverse
// range scans make an iterator per seek, and most of a merging iterator's
// children move back once (SeekLT) and never again, so the cache is only
// allocated, once for the iterator's life, when a second rescan shows that
// it walks backwards.
type reverseCache struct {
	entries []reverseEntry
	keys    []byte // the entries' user keys back to back
	// next is the entry a walk backwards restores next: the one before
	// the last restored (-1: none known). Checked first, it makes each
	// step one comparison; searching from the end made a walk through an
	// interval of n entries n²/2 of them (11% of an 8-thread readreverse
	// profile).
	next int
	// rescanned is set once a rescan has run without the cache.
	rescanned bool
}

// Initial capacities: db_bench's restart interval (16) entries of keys up
// to 24 bytes; longer intervals or keys grow them once.
const (
	reverseCacheEntries  = 16
	reverseCacheKeyBytes = reverseCacheEntries * 24
)

// reverseEntry is one decoded entry: what blockIter.decode sets.
type reverseEntry struct {
	off, nextOff int
	keyEnd       int // the key is keys[previous entry's keyEnd:keyEnd]
	trailer      base.Trailer
	valOff       uint32
	valLen       uint32
}

// reset empties the cache, keeping its memory.
func (c *reverseCache) reset() {
	c.entries = c.entries[:0]
	c.keys = c.keys[:0]
	c.next = -1
}

// begin starts a rescan from a restart point: it empties the cache and
// reports whether the rescan should record its entries.
func (c *reverseCache) begin() bool {
	if c.entries == nil {
		if !c.rescanned {
			c.rescanned = true
			return false
		}
		c.entries = make([]reverseEntry, 0, reverseCacheEntries)
		c.keys = make([]byte, 0, reverseCacheKeyBytes)
	}
	c.reset()
	return true
}

// record appends the iterator's current entry, which must follow the last
// recorded one in the block.
func (c *reverseCache) record(it *blockIter) {
	c.keys = append(c.keys, it.key...)
	c.entries = append(c.entries, reverseEntry{
		off: it.off, nextOff: it.nextOff, keyEnd: len(c.keys),
		trailer: it.trailer, valOff: it.valOff, valLen: it.valLen,
	})
}

// restoreBefore makes the entry that ends where the entry at off starts
// current, if the cache holds it, and reports whether it did.
func (c *reverseCache) restoreBefore(it *blockIter, off int) bool {
	if i := c.next; i >= 0 && i < len(c.entries) && c.entries[i].nextOff == off {
		c.restore(it, i)
		return true
	}
	for i := len(c.entries) - 1; i >= 0; i-- {
		if c.entries[i].nextOff == off {
			c.restore(it, i)
			return true
		}
	}
	return false
}

// restore makes entry i current.
func (c *reverseCache) restore(it *blockIter, i int) {
	e := &c.entries[i]
	keyStart := 0
	if i > 0 {
		keyStart = c.entries[i-1].keyEnd
	}
	it.key = append(it.key[:0], c.keys[keyStart:e.keyEnd]...)
	it.off, it.nextOff = e.off, e.nextOff
	it.trailer, it.valOff, it.valLen = e.trailer, e.valOff, e.valLen
	it.atRestart = false
	c.next = i - 1
}
