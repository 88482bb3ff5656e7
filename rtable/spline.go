package rtable

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// The key index of a packed-key table is a RadixSpline (Kipf et al.,
// 2020): a piecewise linear function from a key's varying part to its
// ordinal, through knots that are (key, first ordinal) points of the
// table, with every distinct key of the table within splineErr entries of
// the value the function gives for it; and a radix table over the top bits
// of the key (minus the smallest key) that narrows the knot search to the
// knots sharing those bits. A lookup reads the radix table and one or two
// knots (small, cache resident in a hot table) and then searches at most
// 2×SplineError+1 keys of the keys section around the prediction.
//
// Keys section order is what makes this work: the varying parts, read as
// big-endian integers, are sorted, so position is a monotone function of
// the key, and for db_bench's keys (dense or uniformly random integers)
// a few knots describe it.

// maxRadixBits bounds the radix table at 2^16+1 u32 entries (256 KiB).
const maxRadixBits = 16

// splineHeaderLen is the index section's fixed header: u32 knot count,
// u32 radix bits, u32 shift, u32 error bound.
const splineHeaderLen = 16

// splineBuilder receives the distinct keys of a table in order, each with
// the ordinal of its first entry, and chooses the knots (greedy spline
// corridor: a knot is placed when no line from the last knot can stay
// within the bound of every point since).
type splineBuilder struct {
	xs, ys       []uint64
	baseX, baseY uint64
	prevX, prevY uint64
	lower, upper float64
	bound        float64
	points       int
}

func newSplineBuilder(errBound int) *splineBuilder {
	// One entry of slack against float rounding in the reader's
	// interpolation.
	return &splineBuilder{bound: float64(errBound - 1)}
}

func (s *splineBuilder) add(x, y uint64) {
	s.points++
	if s.points == 1 {
		s.xs, s.ys = append(s.xs, x), append(s.ys, y)
		s.baseX, s.baseY, s.prevX, s.prevY = x, y, x, y
		s.lower, s.upper = -1, -1 // unset: set below on the second point
		return
	}
	dx := float64(x - s.baseX)
	dy := float64(y) - float64(s.baseY)
	if s.points > 2 && (dy/dx > s.upper || dy/dx < s.lower) {
		s.xs, s.ys = append(s.xs, s.prevX), append(s.ys, s.prevY)
		s.baseX, s.baseY = s.prevX, s.prevY
		dx = float64(x - s.baseX)
		dy = float64(y) - float64(s.baseY)
		s.upper, s.lower = (dy+s.bound)/dx, (dy-s.bound)/dx
	} else if s.points == 2 {
		s.upper, s.lower = (dy+s.bound)/dx, (dy-s.bound)/dx
	} else {
		s.upper = min(s.upper, (dy+s.bound)/dx)
		s.lower = max(s.lower, (dy-s.bound)/dx)
	}
	s.prevX, s.prevY = x, y
}

// finish appends the index section.
func (s *splineBuilder) finish(dst []byte) []byte {
	if s.points > 1 {
		s.xs, s.ys = append(s.xs, s.prevX), append(s.ys, s.prevY)
	}
	m := len(s.xs)
	r := min(bits.Len(uint(m)), maxRadixBits)
	span := s.xs[m-1] - s.xs[0]
	shift := max(0, bits.Len64(span)-r)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(m))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(r))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(shift))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(s.bound+1))
	for _, x := range s.xs {
		dst = binary.LittleEndian.AppendUint64(dst, x)
	}
	for _, y := range s.ys {
		dst = binary.LittleEndian.AppendUint64(dst, y)
	}
	// Entry p: the first knot whose top bits are >= p.
	k := 0
	for p := uint64(0); p <= 1<<r; p++ {
		for k < m && (s.xs[k]-s.xs[0])>>shift < p {
			k++
		}
		dst = binary.LittleEndian.AppendUint32(dst, uint32(k))
	}
	return dst
}

// spline is a decoded key index.
type spline struct {
	xs, ys []uint64
	radix  []uint32
	shift  uint
	bound  uint64
}

// decodeSpline parses an index section for a table of n entries.
func decodeSpline(b []byte, n uint64) (spline, error) {
	var s spline
	if len(b) < splineHeaderLen {
		return s, fmt.Errorf("key index of %d bytes", len(b))
	}
	m := uint64(binary.LittleEndian.Uint32(b))
	r := uint64(binary.LittleEndian.Uint32(b[4:]))
	shift := uint64(binary.LittleEndian.Uint32(b[8:]))
	s.bound = uint64(binary.LittleEndian.Uint32(b[12:]))
	if m < 1 || m > n || r > maxRadixBits || shift > 63 {
		return s, fmt.Errorf("key index header (%d knots, %d radix bits, shift %d, bound %d)", m, r, shift, s.bound)
	}
	if want := splineHeaderLen + 16*m + 4*(1<<r+1); uint64(len(b)) != want {
		return s, fmt.Errorf("key index is %d bytes, want %d", len(b), want)
	}
	b = b[splineHeaderLen:]
	s.xs, s.ys, s.radix = make([]uint64, m), make([]uint64, m), make([]uint32, 1<<r+1)
	for i := range s.xs {
		s.xs[i] = binary.LittleEndian.Uint64(b[8*i:])
		s.ys[i] = binary.LittleEndian.Uint64(b[8*(uint64(i)+m):])
		if i > 0 && (s.xs[i] <= s.xs[i-1] || s.ys[i] < s.ys[i-1]) || s.ys[i] >= n {
			return s, fmt.Errorf("knot %d out of order", i)
		}
	}
	b = b[16*m:]
	// Entry p must be the first knot whose top bits are >= p, as finish
	// writes it: predict trusts it to bracket the knot search.
	k := 0
	for p := range s.radix {
		s.radix[p] = binary.LittleEndian.Uint32(b[4*p:])
		for k < len(s.xs) && (s.xs[k]-s.xs[0])>>shift < uint64(p) {
			k++
		}
		if s.radix[p] != uint32(k) {
			return s, fmt.Errorf("radix entry %d is %d, but the knots say %d", p, s.radix[p], k)
		}
	}
	if s.radix[len(s.radix)-1] != uint32(m) {
		return s, fmt.Errorf("radix table ends at %d, not %d", s.radix[len(s.radix)-1], m)
	}
	s.shift = uint(shift)
	return s, nil
}

// predict returns the spline's estimate of the first ordinal of key x,
// which must lie in [xs[0], xs[len-1]].
func (s *spline) predict(x uint64) uint64 {
	p := (x - s.xs[0]) >> s.shift
	if p >= uint64(len(s.radix)-1) {
		p = uint64(len(s.radix) - 2)
	}
	lo, hi := int(s.radix[p]), int(s.radix[p+1])
	// The first knot above x lies in [lo, hi].
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.xs[m] <= x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	i := lo - 1
	if i < 0 {
		return s.ys[0]
	}
	if i >= len(s.xs)-1 {
		return s.ys[len(s.ys)-1]
	}
	x0, y0 := s.xs[i], s.ys[i]
	f := float64(x-x0) * float64(s.ys[i+1]-y0) / float64(s.xs[i+1]-x0)
	return y0 + uint64(f)
}
