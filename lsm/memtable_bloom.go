package lsm

import (
	"hash/maphash"
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/prefetch"
)

// memBloom is a memtable's bloom filter (RocksDB's memtable prefix bloom,
// --memtable_bloom_size_ratio): the prefixes of the keys written to the
// memtable under the DB's prefix extractor and, with
// memtable_whole_key_filtering, the whole keys. Get and prefix seeks probe
// it before searching the memtable and skip a memtable it rules out.
//
// It lives in memory only, so its hash (hash/maphash, one seed per
// process) and layout are free to change. The filter is words of 64 bits
// in lines of 8 words (512 bits, one cache line); a key's hash h picks
// line (h>>32) × lines >> 32, and each of memBloomProbes probes sets or
// tests the bit named by the next 9 bits of h × 0x9E3779B97F4A7C15, least
// significant first (bit b of a line is bit b%64 of its word b/64).
//
// Adds are lock-free, so that the parallel inserts of a write group need
// no lock: a bit is set by an atomic OR, skipped when a load shows it set
// already (which keeps a cache line shared by readers from bouncing). An
// add happens before the write's sequence is published, so a reader that
// may see the write sees its bits.
type memBloom struct {
	words []uint64
	lines uint64
	whole bool // whole keys are added too
}

// memBloomProbes is RocksDB's default memtable_prefix_bloom_probes.
const memBloomProbes = 6

// memBloomSeed seeds the hash of every memtable bloom of the process.
var memBloomSeed = maphash.MakeSeed()

// newMemBloom returns a filter of at least bits bits (rounded up to whole
// lines), or nil when bits is 0.
func newMemBloom(bits uint64, whole bool) *memBloom {
	if bits == 0 {
		return nil
	}
	lines := (bits + 511) / 512
	return &memBloom{words: make([]uint64, lines*8), lines: lines, whole: whole}
}

// bytes is the filter's size in bytes.
func (b *memBloom) bytes() uint64 { return uint64(len(b.words)) * 8 }

// line returns the words of the line of hash h and the probe bits' source.
func (b *memBloom) line(h uint64) ([]uint64, uint64) {
	i := (h >> 32) * b.lines >> 32
	return b.words[i*8 : i*8+8 : i*8+8], h * 0x9E3779B97F4A7C15
}

// bloomBits are the line and probe bits of one key: an add computed and
// its line prefetched now, its bits set by set later.
type bloomBits struct {
	words []uint64 // nil: nothing to set
	p     uint64
}

// bitsOf returns key's bits and starts its line on the way into the cache.
func (b *memBloom) bitsOf(key []byte) bloomBits {
	words, p := b.line(maphash.Bytes(memBloomSeed, key))
	prefetch.Line(unsafe.Pointer(&words[0]))
	return bloomBits{words, p}
}

// set sets the bits in their line.
func (bb bloomBits) set() {
	if bb.words == nil {
		return
	}
	p := bb.p
	for range memBloomProbes {
		w, mask := &bb.words[p>>6&7], uint64(1)<<(p&63)
		if atomic.LoadUint64(w)&mask == 0 {
			atomic.OrUint64(w, mask)
		}
		p >>= 9
	}
}

func (b *memBloom) mayContain(key []byte) bool {
	words, p := b.line(maphash.Bytes(memBloomSeed, key))
	for range memBloomProbes {
		if atomic.LoadUint64(&words[p>>6&7])&(uint64(1)<<(p&63)) == 0 {
			return false
		}
		p >>= 9
	}
	return true
}

// pendingAdd is what the filter holds of a key written (its prefix under
// the prefix extractor when the key is in the prefix's domain, and the key
// itself with whole keys), its lines prefetched (startAdd) and its bits
// set later (finish). The miss on a line of a filter of some hundred
// KiB (at db_bench's defaults 640 KiB) was 7-13% of fillseq's CPU (pprof,
// 1M and 2M keys, 1 and 8 threads); the memtable insert between the two
// halves overlaps it.
type pendingAdd struct{ prefix, whole bloomBits }

// startAdd computes what the filter holds of key and prefetches its lines.
func (b *memBloom) startAdd(prefix prefixExtractor, key []byte) pendingAdd {
	var a pendingAdd
	if prefix.inDomain(key) {
		a.prefix = b.bitsOf(prefix.of(key))
	}
	if b.whole {
		a.whole = b.bitsOf(key)
	}
	return a
}

// finish sets the bits of a.
func (a *pendingAdd) finish() {
	a.prefix.set()
	a.whole.set()
}

// mayContainKey reports whether a Get of key must search the memtable:
// false when the whole key, or else the key's prefix, is ruled out.
func (b *memBloom) mayContainKey(prefix prefixExtractor, key []byte) bool {
	switch {
	case b.whole:
		return b.mayContain(key)
	case prefix.inDomain(key):
		return b.mayContain(prefix.of(key))
	}
	return true
}
