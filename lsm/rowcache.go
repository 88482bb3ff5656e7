package lsm

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"sync"
)

// rowCache is the row cache (RocksDB's Options::row_cache): the result of a
// point lookup in one table, kept per (table file, user key, sequence key)
// so that a repeated Get of the same key skips the table's filter, index
// and block search. What a row holds and when it may be used is
// rowcache_get.go's; this file is the container.
//
// Memory layout. Each shard is one byte arena used as a ring: rows are
// appended at the head, and the oldest rows are dropped at the tail to make
// room (FIFO). A hit on a row in the older half of the ring appends a copy
// at the head, so a row read at least once per half turn of the ring stays
// cached: an approximation of LRU with one copy per half turn instead of a
// list update per hit. The index from key hash to arena offset is a map
// whose keys and values hold no pointers, and the arena is one []byte, so
// the garbage collector scans neither. A hit copies the row out under the
// shard's mutex into the caller's buffer and allocates nothing.
//
// The budget is the arenas' total size, rows charged with their header and
// alignment; the index's map is not charged.
//
// An entry at arena offset o (a multiple of 8), all integers little-endian:
//
//	o+0   uint32  entry length L, header and padding included, a multiple of 8
//	o+4   uint32  user key length k; rowCachePad marks a pad entry, which
//	              fills the arena's end when the next entry does not fit
//	              there and has only these 8 bytes of header
//	o+8   uint64  hash of (file, sequence key, user key)
//	o+16  uint64  table file number
//	o+24  uint64  sequence key
//	o+32  uint32  row length r
//	o+36  uint32  zero
//	o+40  k bytes user key, then r bytes row, then zeros up to L
//
// Entries never straddle the arena's end. Offsets in the index are logical:
// they grow without wrapping, and an entry's place in the arena is its
// logical offset modulo the arena size.
type rowCache struct {
	shards   []rowCacheShard
	mask     uint64
	capacity int64
	seed     maphash.Seed
}

const (
	rowCacheHeader = 40
	rowCachePad    = ^uint32(0)
	// rowCacheMinShard is the smallest shard the default shard count
	// makes, as RocksDB's caches keep shards at 512 KiB or more.
	rowCacheMinShard = 512 << 10
)

type rowCacheShard struct {
	mu    sync.Mutex
	index map[uint64]uint64 // hash → logical offset of its entry
	arena []byte
	// Live entries lie in the logical range [tail, head); head-tail is at
	// most len(arena).
	head, tail uint64
}

// newRowCache returns a row cache of capacity bytes in 1<<numShardBits
// shards (numShardBits < 0: one shard per 512 KiB, at most 64), or nil for
// capacity <= 0.
func newRowCache(capacity int64, numShardBits int) *rowCache {
	if capacity <= 0 {
		return nil
	}
	if numShardBits < 0 {
		n := max(capacity/rowCacheMinShard, 1)
		numShardBits = min(63-bits.LeadingZeros64(uint64(n)), 6)
	}
	numShardBits = min(numShardBits, 16)
	shards := 1 << numShardBits
	for shards > 1 && capacity/int64(shards) < 4*rowCacheHeader*64 {
		shards >>= 1
	}
	per := max(capacity/int64(shards)&^7, 8*rowCacheHeader)
	c := &rowCache{shards: make([]rowCacheShard, shards), mask: uint64(shards - 1), capacity: capacity, seed: maphash.MakeSeed()}
	for i := range c.shards {
		c.shards[i].index = make(map[uint64]uint64)
		c.shards[i].arena = make([]byte, per)
	}
	return c
}

// hash returns the hash of a row's key.
func (c *rowCache) hash(file, seqKey uint64, userKey []byte) uint64 {
	h := maphash.Bytes(c.seed, userKey)
	h ^= (file*0x9E3779B97F4A7C15 ^ seqKey) * 0xC2B2AE3D27D4EB4F
	return h ^ h>>29
}

func (c *rowCache) shard(hash uint64) *rowCacheShard {
	return &c.shards[(hash>>40)&c.mask]
}

// usage returns the bytes the rows take, headers and pads included.
func (c *rowCache) usage() int64 {
	var n int64
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		n += int64(s.head - s.tail)
		s.mu.Unlock()
	}
	return n
}

// lookup appends the row of (file, seqKey, userKey) to dst[:0] and reports
// whether it was cached.
func (c *rowCache) lookup(hash, file, seqKey uint64, userKey, dst []byte) ([]byte, bool) {
	s := c.shard(hash)
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.index[hash]
	if !ok {
		return dst[:0], false
	}
	e := s.entry(p)
	k := binary.LittleEndian.Uint32(e[4:])
	if binary.LittleEndian.Uint64(e[16:]) != file || binary.LittleEndian.Uint64(e[24:]) != seqKey ||
		int(k) != len(userKey) || !bytes.Equal(e[rowCacheHeader:rowCacheHeader+k], userKey) {
		return dst[:0], false // another key with the same hash
	}
	r := binary.LittleEndian.Uint32(e[32:])
	start := rowCacheHeader + k
	dst = append(dst[:0], e[start:start+r]...)
	if s.head-p > uint64(len(s.arena))/2 {
		// In the older half: a copy at the head keeps it cached.
		s.append(hash, file, seqKey, userKey, dst)
	}
	return dst, true
}

// insert caches row for (file, seqKey, userKey). A row too large for a
// quarter of a shard is not cached.
func (c *rowCache) insert(hash, file, seqKey uint64, userKey, row []byte) {
	s := c.shard(hash)
	s.mu.Lock()
	if _, ok := s.index[hash]; !ok {
		// A present hash is the same row, cached by a racing lookup, or
		// another key's, which keeps its place.
		s.append(hash, file, seqKey, userKey, row)
	}
	s.mu.Unlock()
}

// entry returns the arena bytes from logical offset p to the arena's end.
func (s *rowCacheShard) entry(p uint64) []byte {
	return s.arena[p%uint64(len(s.arena)):]
}

// append writes an entry at the head, dropping the oldest entries as
// needed, and points the index at it.
func (s *rowCacheShard) append(hash, file, seqKey uint64, userKey, row []byte) {
	size := uint64(len(s.arena))
	n := (uint64(rowCacheHeader+len(userKey)+len(row)) + 7) &^ 7
	if n > size/4 {
		return
	}
	pad := uint64(0)
	if room := size - s.head%size; room < n {
		pad = room
	}
	for size-(s.head-s.tail) < pad+n {
		s.dropTail()
	}
	if pad > 0 {
		e := s.entry(s.head)
		binary.LittleEndian.PutUint32(e[0:], uint32(pad))
		binary.LittleEndian.PutUint32(e[4:], rowCachePad)
		s.head += pad
	}
	e := s.entry(s.head)[:n]
	binary.LittleEndian.PutUint32(e[0:], uint32(n))
	binary.LittleEndian.PutUint32(e[4:], uint32(len(userKey)))
	binary.LittleEndian.PutUint64(e[8:], hash)
	binary.LittleEndian.PutUint64(e[16:], file)
	binary.LittleEndian.PutUint64(e[24:], seqKey)
	binary.LittleEndian.PutUint32(e[32:], uint32(len(row)))
	binary.LittleEndian.PutUint32(e[36:], 0)
	copy(e[rowCacheHeader:], userKey)
	copy(e[rowCacheHeader+len(userKey):], row)
	clear(e[rowCacheHeader+len(userKey)+len(row):])
	s.index[hash] = s.head
	s.head += n
}

// dropTail drops the oldest entry, and its index entry when the index
// still points at it (a later copy or another key may have replaced it).
func (s *rowCacheShard) dropTail() {
	e := s.entry(s.tail)
	n := binary.LittleEndian.Uint32(e[0:])
	if binary.LittleEndian.Uint32(e[4:]) != rowCachePad {
		h := binary.LittleEndian.Uint64(e[8:])
		if p, ok := s.index[h]; ok && p == s.tail {
			delete(s.index, h)
		}
	}
	s.tail += uint64(n)
}
