package sst

import (
	"encoding/binary"
	"math/bits"

	"github.com/godbbench/godbbench/internal/bloom"
)

// The filter block is internal/bloom's cache-line-blocked filter over
// user keys with its Multiply32 probe sequence, hashed by hashKey, followed
// by a 5-byte trailer: u32 line count, u8 probe count (doc.go has the
// layout). At 10 bits per key and 6 probes the false-positive rate
// measured by TestBloomFalsePositiveRate is about 1%.

// bloomTrailerLen is the u32 line count plus the u8 probe count.
const bloomTrailerLen = 5

// hashKey is the 64-bit hash of a user key used by the filter. It reads 8
// bytes per step (a 16-byte key costs two multiplies) and finishes with the
// murmur3 fmix64 avalanche so that every input bit affects the top bits used
// for the line choice.
func hashKey(key []byte) uint64 {
	const (
		m1 = 0x9E3779B97F4A7C15
		m2 = 0xC2B2AE3D27D4EB4F
	)
	h := uint64(len(key)) * m1
	for len(key) >= 8 {
		w := binary.LittleEndian.Uint64(key)
		h ^= bits.RotateLeft64(w*m2, 31) * m1
		h = bits.RotateLeft64(h, 27)*5 + 0x52DCE729
		key = key[8:]
	}
	var tail uint64
	for i := len(key) - 1; i >= 0; i-- {
		tail = tail<<8 | uint64(key[i])
	}
	h ^= bits.RotateLeft64(tail*m2, 31) * m1
	h ^= h >> 33
	h *= 0xFF51AFD7ED558CCD
	h ^= h >> 33
	h *= 0xC4CEB9FE1A85EC53
	h ^= h >> 33
	return h
}

// buildBloom encodes a filter block for the given key hashes (duplicates
// allowed).
func buildBloom(dst []byte, hashes []uint64, bitsPerKey int) []byte {
	probes := bloom.ProbesFor(bitsPerKey, bloom.Multiply32)
	dst = bloom.Append(dst, hashes, bitsPerKey, probes, bloom.Multiply32)
	return appendBloomTrailer(dst, bloom.Lines(len(hashes), bitsPerKey), probes)
}

// appendBloomTrailer appends a filter block's trailer: the line count and
// the probe count.
func appendBloomTrailer(dst []byte, lines, probes int) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(lines))
	return append(dst, byte(probes))
}

// decodeBloom validates a filter block; ok is false if it is malformed.
func decodeBloom(b []byte) (f bloom.Filter, ok bool) {
	if len(b) < bloomTrailerLen {
		return f, false
	}
	n := len(b) - bloomTrailerLen
	lines := binary.LittleEndian.Uint32(b[n:])
	if uint64(lines)*bloom.LineBytes != uint64(n) {
		return f, false
	}
	return bloom.New(b[:n], int(b[len(b)-1]), bloom.Multiply32)
}
