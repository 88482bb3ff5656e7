package rtable

import (
	"encoding/binary"
	"math/bits"

	"github.com/godbbench/godbbench/internal/bloom"
)

// The filter section is internal/bloom's cache-line-blocked filter with
// its Fields9 probe sequence (seven 9-bit fields fit in 64 bits, so at most
// 7 probes); the meta section records the probe count.
//
// Packed-key tables hash the varying part alone (hashPacked), which is one
// multiply chain; variable-key tables hash the user key after the common
// prefix (hashBytes).

// mix64 is the splitmix64 finalizer.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	x ^= x >> 31
	return x
}

// hashPacked hashes the varying part of a packed key.
func hashPacked(v uint64) uint64 { return mix64(v + 0x2545F4914F6CDD1D) }

// hashBytes hashes a byte string eight bytes at a time.
func hashBytes(b []byte) uint64 {
	h := uint64(len(b)) * 0xD6E8FEB86659FD93
	for len(b) >= 8 {
		h = bits.RotateLeft64(h^binary.LittleEndian.Uint64(b), 29) * 0xA0761D6478BD642F
		b = b[8:]
	}
	var tail uint64
	for i, c := range b {
		tail |= uint64(c) << (8 * i)
	}
	return mix64(h ^ tail)
}

// filterProbesFor is the probe count for bitsPerKey: ln 2 × bits per key,
// clamped to [1, 7].
func filterProbesFor(bitsPerKey int) int { return bloom.ProbesFor(bitsPerKey, bloom.Fields9) }

// buildFilter returns the filter lines for the given key hashes.
func buildFilter(hashes []uint64, bitsPerKey, probes int) []byte {
	return bloom.Append(nil, hashes, bitsPerKey, probes, bloom.Fields9)
}
