package rtable

import (
	"bytes"
	"encoding/binary"
)

// Key lookup: both key modes answer lowerBound (the first ordinal whose
// user key is >= a given key) and keyEqual. Packed keys compare as
// integers; variable keys as byte strings after the common prefix, with a
// sampled index of 8-byte prefixes narrowing a binary search to
// sampleEvery keys.

// sampleEvery is the distance between sampled keys of a variable-key
// table: the key index holds the first 8 bytes (after the common prefix)
// of keys 0, sampleEvery, 2×sampleEvery, ...
const sampleEvery = 16

// keyPrefix8 is the first 8 bytes of k as a big-endian integer, zero
// padded: prefixes that differ order their keys.
func keyPrefix8(k []byte) uint64 {
	var b [8]byte
	copy(b[:], k)
	return binary.BigEndian.Uint64(b[:])
}

// packedKey is the varying part of packed key i.
func (r *Reader) packedKey(i uint64) uint64 {
	return packedAt(r.keys, i, r.m.keyWidth, r.keyMask)
}

// varKey is variable key i after the common prefix.
func (r *Reader) varKey(i uint64) []byte {
	return r.keyBytes[binary.LittleEndian.Uint32(r.keyOffs[4*i:]):binary.LittleEndian.Uint32(r.keyOffs[4*i+4:])]
}

// splitPrefix compares k with the common prefix. It returns the rest of k
// after the prefix and 0 when k starts with it; otherwise -1 when k sorts
// before every key of the table and +1 when after.
func (r *Reader) splitPrefix(k []byte) ([]byte, int) {
	p := r.m.prefix
	if len(k) < len(p) {
		if bytes.Compare(k, p[:len(k)]) <= 0 {
			return nil, -1
		}
		return nil, 1
	}
	if c := bytes.Compare(k[:len(p)], p); c != 0 {
		return nil, c
	}
	return k[len(p):], 0
}

// lowerBound returns the first ordinal whose user key is >= k.
func (r *Reader) lowerBound(k []byte) uint64 {
	rest, c := r.splitPrefix(k)
	if c < 0 {
		return 0
	}
	if c > 0 {
		return r.m.entries
	}
	if r.m.keyMode == keysVariable {
		return r.varLowerBound(rest)
	}
	w := int(r.m.keyWidth)
	if len(rest) < w {
		// A key shorter than prefix+varying part: pad it with zeros; any
		// table key with the same leading bytes is longer, so greater.
		return r.packedLowerBound(varyingPart(rest) << (8 * uint(w-len(rest))))
	}
	v := varyingPart(rest[:w])
	if bytes.Compare(r.m.suffix, rest[w:]) >= 0 {
		return r.packedLowerBound(v)
	}
	// Keys with varying part v sort before k.
	if v == r.keyMask {
		return r.m.entries
	}
	return r.packedLowerBound(v + 1)
}

// packedLowerBound returns the first ordinal whose varying part is >= v:
// the spline predicts an ordinal p, and a search outward from p, doubling
// its step, brackets the answer for a binary search. When the prediction
// is exact (db_bench's dense keys) that reads two or three neighbouring
// keys, one cache line; when it is off by d it reads about 2 log2(d) keys,
// however far the key is (a long run of versions of one key, or a damaged
// index, costs time, never a wrong answer).
func (r *Reader) packedLowerBound(v uint64) uint64 {
	sp := &r.spline
	if v <= sp.xs[0] {
		return 0
	}
	n := r.m.entries
	if v > sp.xs[len(sp.xs)-1] {
		return n
	}
	p := min(sp.predict(v), n-1)
	step := uint64(1)
	if r.packedKey(p) >= v {
		// The answer is in [0, p]: gallop down while keys are >= v.
		hi := p
		for hi > 0 {
			c := hi - min(step, hi)
			if r.packedKey(c) < v {
				return r.packedSearch(v, c+1, hi)
			}
			hi, step = c, step<<1
		}
		return 0
	}
	// The answer is in (p, n]: gallop up while keys are < v.
	lo := p
	for {
		c := lo + step
		if c >= n {
			return r.packedSearch(v, lo+1, n)
		}
		if r.packedKey(c) >= v {
			return r.packedSearch(v, lo+1, c)
		}
		lo, step = c, step<<1
	}
}

// packedSearch returns the first ordinal in [lo, hi) whose varying part
// is >= v, or hi.
func (r *Reader) packedSearch(v, lo, hi uint64) uint64 {
	for lo < hi {
		m := (lo + hi) >> 1
		if r.packedKey(m) < v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// varLowerBound returns the first ordinal whose key after the common
// prefix is >= rest.
func (r *Reader) varLowerBound(rest []byte) uint64 {
	n := r.m.entries
	samples := uint64(len(r.samples) / 8)
	kp := keyPrefix8(rest)
	lo, hi := uint64(0), samples
	for lo < hi {
		m := (lo + hi) >> 1
		sp := binary.LittleEndian.Uint64(r.samples[8*m:])
		if sp < kp || sp == kp && bytes.Compare(r.varKey(m*sampleEvery), rest) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return 0
	}
	// Keys (lo-1)×sampleEvery and before are < rest; lo×sampleEvery
	// (if any) is >= rest.
	first, last := (lo-1)*sampleEvery+1, min(n, lo*sampleEvery)
	for first < last {
		m := (first + last) >> 1
		if bytes.Compare(r.varKey(m), rest) < 0 {
			first = m + 1
		} else {
			last = m
		}
	}
	return first
}
