package dbbench

import (
	"math/bits"

	"github.com/cespare/xxhash/v2"
)

// Read checksums: every read benchmark folds each entry it read into a
// per-thread sum of mixed 64-bit hashes. Addition makes the fold independent
// of order and of how entries were split among threads, so two engines fed
// the same seed can be shown to have returned the same data; the merged
// value is the sum over threads (mod 2^64), reported in the JSON record.
//
// Cost: xxhash runs at ~10 GB/s, so a 16-byte key and 100-byte value add
// about 15 ns per entry.

const foldPrime = 0x9E3779B97F4A7C15

// foldKV is the contribution of one key/value pair.
func foldKV(key, value []byte) uint64 {
	h := xxhash.Sum64(key) ^ bits.RotateLeft64(xxhash.Sum64(value)*foldPrime, 31)
	return mix64(h)
}

// foldKey is the contribution of a key read without its value.
func foldKey(key []byte) uint64 { return mix64(xxhash.Sum64(key)) }

func mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// getSink receives Get's value for the current key; its take method is
// bound once per thread so a lookup allocates nothing.
type getSink struct {
	key      []byte
	valueLen int
	checksum uint64
	fold     bool
}

func (g *getSink) take(v []byte) {
	g.valueLen = len(v)
	if g.fold {
		g.checksum += foldKV(g.key, v)
	}
}

// getRunSink receives the values of a run of Gets by index (engine.Runs.Get)
// and folds each with its key, stored back to back in keys; its take
// method is bound once.
type getRunSink struct {
	keys     []byte
	keyLen   int
	checksum uint64
}

func (g *getRunSink) take(i int, v []byte) {
	g.checksum += foldKV(g.keys[i*g.keyLen:(i+1)*g.keyLen], v)
}

// scanSink folds the entries of a scan (engine.ScanOptions.Entry): the key
// alone when the scan reads keys only.
type scanSink struct {
	keysOnly bool
	checksum uint64
}

func (s *scanSink) take(k, v []byte) {
	if s.keysOnly {
		s.checksum += foldKey(k)
		return
	}
	s.checksum += foldKV(k, v)
}
