package sst

import "sync/atomic"

// A full cache shard admits a data block only on its second miss within a
// recent window: the first miss of a block is remembered in a doorkeeper
// (a small Bloom filter without deletions), the second one finds it there
// and caches the block. Until a shard first has to evict, every block is
// admitted, so a working set that fits is cached on first use as before.
//
// Why: at db_bench's defaults (8 MiB of cache, 60-110 MB of tables) about
// nine block loads in ten miss. Caching every miss meant, per Get that
// reached a table, reserving two slots (the shard's write lock and a clock
// sweep evicting two blocks and removing them from the index) and
// publishing them (the lock again, a probe for a duplicate, an insert),
// about a tenth of readrandom's CPU, for blocks that a uniform random read
// stream almost never touches again before they are evicted. A block read
// twice within the window is likelier than a block read once to be read
// again, so the cache keeps the blocks worth keeping, and a scan, which
// loads each block once, no longer flushes it (scan resistance).
//
// A block read ahead by a scan is not cached at all once its shard has
// had to evict: a scan reads the blocks the cache holds but never displaces
// them, and is not remembered by the doorkeeper. Scans that run together
// over the same blocks (readseq and readreverse with --threads > 1) start
// together and stay abreast, so each missed nearly every block the other
// was decoding at that moment; with first-miss caching for such scans, or
// with the doorkeeper alone (the second scan's miss is the block's second),
// both reserved, filled and published nearly every block: two write locks
// and a clock sweep per block per scan, waiters parking behind them. On a
// 10M-key database (8 MiB cache) two readseq threads each scanned at 0.26
// us an entry against 0.10 us alone; decoding into their own buffers, each
// runs as fast as one alone. Until a shard first evicts, scanned blocks are
// cached like any other, so a database that fits is cached by its first
// scan.
//
// What is declined is decoded into the reader's own buffer, as a block
// that cannot be cached always was; only data blocks go through admission
// (Cache.admit): index and filter partitions are reserved directly.
//
// The doorkeeper of a shard is words of 64 bits; a block key sets two bits
// of one word (one cache line touched, atomic OR, no lock). After window
// first misses it is cleared, so it remembers roughly the last window of
// them: window is the shard's slot count at 2 KiB a slot, and the filter
// has 8 bits per remembered key (two bits set per key: about 5% false
// positives, which admit a block on its first miss).
type doorkeeper struct {
	words  []atomic.Uint64
	window int32
	added  atomic.Int32 // first misses since the last clear
}

// newDoorkeeper sizes a doorkeeper for a shard of shardBytes.
func newDoorkeeper(shardBytes int64) doorkeeper {
	window := max(shardBytes/2048, 64)
	words := int64(1)
	for words*64 < 8*window {
		words <<= 1
	}
	return doorkeeper{words: make([]atomic.Uint64, words), window: int32(window)}
}

// seen reports whether k missed before within the window, and remembers it
// when it did not.
func (d *doorkeeper) seen(k cacheKey) bool {
	h := (k.file*0x9E3779B97F4A7C15 ^ k.off) * 0xD6E8FEB86659FD93
	w := &d.words[h>>24&uint64(len(d.words)-1)]
	mask := uint64(1)<<(h>>52&63) | uint64(1)<<(h>>58)
	if w.Load()&mask == mask {
		return true
	}
	w.Or(mask)
	if d.added.Add(1) >= d.window {
		d.added.Store(0)
		for i := range d.words {
			d.words[i].Store(0)
		}
	}
	return false
}

// admit is reserve for a data block: once the shard has had to evict, a
// block is reserved only on its second miss within the doorkeeper's window,
// and never when scanning says a scan read it ahead (see above); ok is
// false when it is declined or cannot be cached.
func (c *Cache) admit(file, off uint64, n int, scanning bool) (cacheHandle, []byte, bool) {
	k := cacheKey{file, off}
	if s := c.shard(k); s.full.Load() && (scanning || !s.door.seen(k)) {
		return cacheHandle{}, nil, false
	}
	return c.reserve(file, off, n)
}
