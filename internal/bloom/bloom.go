// Package bloom is the cache-line-blocked bloom filter of the native table
// formats, sst's block format and rtable: a key's 64-bit hash picks one
// 64-byte line of the filter and every probe tests a bit of that line, so
// a lookup costs one cache miss whatever the probe count. At 10 bits per
// key the false-positive rate is about 1% (measured by the tests of both
// formats), near a classic bloom filter's 0.8%: the blocking costs a
// little accuracy and saves the other probes' misses.
//
// The hash is the format's own (each hashes its keys its way); this
// package places the bits. Both formats' bytes on disk are fixed, so each
// keeps the probe sequence it was first written with (Probing).
//
// # Layout
//
// A filter of L lines is L × 64 bytes; what records L and the probe count
// P is the format's (sst: a trailer after the lines; rtable: its meta
// section). Bit b of a line (0-511) is bit b%8 of the line's byte b/8.
// The line of hash h is (h>>32) × L >> 32, the high half of h scaled onto
// [0, L) without a division. Within the line:
//
//   - Multiply32 (sst): p = h mod 2^32; each probe names bit p>>23 (the
//     top 9 bits of p), then p = p × 0x9E3779B9 mod 2^32. P ≤ 30.
//   - Fields9 (rtable): p = h × 0x9E3779B97F4A7C15 mod 2^64; the probes
//     name the 9-bit fields of p, least significant first: bit p & 511,
//     then p >>= 9. Seven fields fit in 64 bits, so P ≤ 7.
//
// A key is added by setting its P bits and may be present when all P are
// set. L = ceil(keys × bits per key / 512), at least 1 (Lines); P is
// ln 2 × bits per key, 0.69 × bits per key rounded down, clamped to
// [1, the probing's maximum] (ProbesFor).
//
// Worked example: L = 4, P = 2, h = 0xC000000000000001. The line is
// 0xC0000000 × 4 >> 32 = 3, bytes 192-255 of the filter. Under Fields9,
// p = 0x5E3779B97F4A7C15: its low 9 bits are 21 and the next 9 are 318,
// so adding the key sets byte 192+2 |= 0x20 and byte 192+39 |= 0x40.
// Under Multiply32, p = 1 names bit 0 and then p = 0x9E3779B9 names bit
// 316: byte 192 |= 0x01 and byte 192+39 |= 0x10 (TestWorkedExample).
package bloom

// LineBytes is the size of a filter line, one cache line.
const LineBytes = 64

// lineBits is the number of bits in a line.
const lineBits = LineBytes * 8

// Probing names how a key's probes pick their bits inside its line.
type Probing uint8

const (
	// Multiply32 is sst's probe sequence: the top 9 bits of a 32-bit
	// value multiplied by 0x9E3779B9 after each probe.
	Multiply32 Probing = iota
	// Fields9 is rtable's: the 9-bit fields of the hash times
	// 0x9E3779B97F4A7C15, least significant first.
	Fields9
)

const (
	mul32Step  = 0x9E3779B9
	fields9Mul = 0x9E3779B97F4A7C15
)

// MaxProbes is the most probes the sequence provides.
func (p Probing) MaxProbes() int {
	if p == Fields9 {
		return 7
	}
	return 30
}

// ProbesFor is the probe count for bitsPerKey under probing: ln 2 × bits
// per key (the optimum for a classic bloom filter), clamped to [1,
// probing.MaxProbes()].
func ProbesFor(bitsPerKey int, probing Probing) int {
	return max(1, min(bitsPerKey*69/100, probing.MaxProbes()))
}

// Lines is the line count of a filter over keys keys at bitsPerKey, at
// least 1.
func Lines(keys, bitsPerKey int) int {
	return max(1, (keys*bitsPerKey+lineBits-1)/lineBits)
}

// line maps the high half of h onto [0, lines).
func line(h, lines uint64) uint64 { return (h >> 32) * lines >> 32 }

// Append appends to dst the lines of a filter over hashes (duplicates
// allowed), Lines(len(hashes), bitsPerKey) of them, with probes probes
// of probing each.
func Append(dst []byte, hashes []uint64, bitsPerKey, probes int, probing Probing) []byte {
	lines := Lines(len(hashes), bitsPerKey)
	start := len(dst)
	dst = append(dst, make([]byte, lines*LineBytes)...)
	f := dst[start:]
	for _, h := range hashes {
		Add(f, uint64(lines), h, probes, probing)
	}
	return dst
}

// Add sets the probes probes of probing for the key with hash h in f, a
// filter of lines lines, as Append does for each of its hashes: a filter
// of L lines built by Add over a set of hashes is byte for byte the one
// Append builds over them when L is Lines of their count.
func Add(f []byte, lines, h uint64, probes int, probing Probing) {
	l := f[line(h, lines)*LineBytes:][:LineBytes]
	if probing == Fields9 {
		p := h * fields9Mul
		for range probes {
			b := p & (lineBits - 1)
			l[b>>3] |= 1 << (b & 7)
			p >>= 9
		}
		return
	}
	p := uint32(h)
	for range probes {
		b := p >> 23
		l[b>>3] |= 1 << (b & 7)
		p *= mul32Step
	}
}

// Filter is a filter read in place: its lines and probe count.
type Filter struct {
	lines   []byte
	count   uint64
	probes  int
	probing Probing
}

// New returns the filter over lines with probes probes of probing; ok is
// false unless lines is a whole, non-zero number of lines and probes is
// in [1, probing.MaxProbes()].
func New(lines []byte, probes int, probing Probing) (f Filter, ok bool) {
	if len(lines) == 0 || len(lines)%LineBytes != 0 || probes < 1 || probes > probing.MaxProbes() {
		return f, false
	}
	return Filter{lines: lines, count: uint64(len(lines) / LineBytes), probes: probes, probing: probing}, true
}

// MayContain reports whether the key with hash h may be in the filter.
func (f *Filter) MayContain(h uint64) bool {
	off := line(h, f.count) * LineBytes
	l := f.lines[off : off+LineBytes]
	if f.probing == Fields9 {
		p := h * fields9Mul
		for range f.probes {
			b := p & (lineBits - 1)
			if l[b>>3]&(1<<(b&7)) == 0 {
				return false
			}
			p >>= 9
		}
		return true
	}
	p := uint32(h)
	for range f.probes {
		b := p >> 23
		if l[b>>3]&(1<<(b&7)) == 0 {
			return false
		}
		p *= mul32Step
	}
	return true
}
