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
// Of a reader's point reads (each read of a pair from the file, through
// one pair buffer: a Get's, pooled per table, or an iterator's) only one
// in admitSample goes to a full shard's doorkeeper at all; the others'
// blocks are declined without touching anything shared. An iterator's
// key blocks loaded alone (before its first Value; db_bench's seekrandom
// makes an iterator per seek) count too, one per load, and the value
// block of such a key block takes its decision (Iter.fillFor); the count
// goes from iterator to iterator with their pooled buffers.
//
// Why: at db_bench's defaults (1M keys, 8 MiB of cache, 58 MB of tables,
// uniform reads) a Get's pair read was admitted on about one miss in six
// (the doorkeeper's second misses and false positives: 367K of 2.08M block
// loads), each admission a write lock, a clock sweep, an eviction and a
// decode into a cold slot, and the doorkeeper's atomic OR on a line the
// other reader thread had just written, while under uniform reads the share
// of hits is the cache's share of the tables however often it turns over.
// With one read in 16 eligible, readrandom at 2 threads on that database
// admitted 26K blocks instead of 367K, hit the cache on 237-261K loads
// instead of 155K (fewer admissions evict fewer blocks before their next
// read), and spent 11% less CPU, five alternated processes each
// (docs/BENCHMARKS.md, "A full cache considers one point read in 16");
// seekrandom, its iterators sampled too, spent 12% less. A block read again
// and again is still admitted: its reads reach the doorkeeper one in 16,
// and its second such read within the window caches it; with
// --read_random_exp_range=10 (most reads on few blocks) one pair of runs
// hit 1.52M loads against 1.56M. Until a shard first evicts, every block is
// admitted as before.
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

// admitSample is how many of a reader's pair reads there are for each one
// whose blocks a full cache may admit (pairBuf.declined); see above. A
// power of two.
const admitSample = 16

// admitSampleMask is admitSample-1: a pair read is in the sample when the
// buffer's count of reads before it has these bits clear. Tests of the
// doorkeeper alone set it to 0 (every read in the sample).
var admitSampleMask uint32 = admitSample - 1

// admit is reserve for a data block: once the shard has had to evict, a
// block is reserved only on its second miss within the doorkeeper's window,
// and never when decline says the caller asks it not to be (a block read
// ahead by a scan, or one of the point reads outside the sample; see
// above); ok is false when it is declined or cannot be cached.
func (c *Cache) admit(file, off uint64, n int, decline bool) (cacheHandle, []byte, bool) {
	k := cacheKey{file, off}
	if s := c.shard(k); s.full.Load() && (decline || !s.door.seen(k)) {
		return cacheHandle{}, nil, false
	}
	return c.reserve(file, off, n)
}
