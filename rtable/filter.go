package rtable

import (
	"encoding/binary"
	"math/bits"
)

// The filter is a blocked bloom filter: a key's hash picks one 64-byte line
// and all probes test bits of that line, so a probe costs one cache miss.
// The line is the high 32 bits of the hash scaled onto the line count; the
// probes are consecutive 9-bit fields of the hash times an odd constant,
// least significant first, each naming a bit of the line (bit b is byte
// b/8, mask 1<<(b%8)). Seven 9-bit fields fit in 64 bits, hence maxProbes.
//
// Packed-key tables hash the varying part alone (hashPacked), which is one
// multiply chain; variable-key tables hash the user key after the common
// prefix (hashBytes).

const (
	lineBytes = 64
	lineBits  = lineBytes * 8
	maxProbes = 7
	probeMul  = 0x9E3779B97F4A7C15
)

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
// clamped to [1, maxProbes].
func filterProbesFor(bitsPerKey int) int {
	return max(1, min(bitsPerKey*69/100, maxProbes))
}

// buildFilter returns the filter lines for the given key hashes.
func buildFilter(hashes []uint64, bitsPerKey, probes int) []byte {
	lines := max(1, (len(hashes)*bitsPerKey+lineBits-1)/lineBits)
	f := make([]byte, lines*lineBytes)
	for _, h := range hashes {
		line := f[filterLine(h, uint64(lines))*lineBytes:]
		p := h * probeMul
		for range probes {
			b := p & (lineBits - 1)
			line[b>>3] |= 1 << (b & 7)
			p >>= 9
		}
	}
	return f
}

func filterLine(h, lines uint64) uint64 { return (h >> 32) * lines >> 32 }

// filter is a decoded filter section.
type filter struct {
	lines  []byte
	count  uint64
	probes int
}

// mayContain reports whether the key with hash h may be in the table.
func (f *filter) mayContain(h uint64) bool {
	off := filterLine(h, f.count) * lineBytes
	line := f.lines[off : off+lineBytes]
	p := h * probeMul
	for range f.probes {
		b := p & (lineBits - 1)
		if line[b>>3]&(1<<(b&7)) == 0 {
			return false
		}
		p >>= 9
	}
	return true
}
