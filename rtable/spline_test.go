package rtable

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSplineErrorBound builds splines over several key distributions and
// checks every key's prediction against its position.
func TestSplineErrorBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	dists := map[string]func(i uint64) uint64{
		"dense":   func(i uint64) uint64 { return i },
		"stride3": func(i uint64) uint64 { return 1000 + 3*i },
		"uniform": func(uint64) uint64 { return rng.Uint64() },
		"40bit":   func(uint64) uint64 { return rng.Uint64N(1 << 40) },
		"clusters": func(i uint64) uint64 {
			return (i/1000)<<40 | rng.Uint64N(1<<20)
		},
		"exponential": func(uint64) uint64 { return uint64(rng.ExpFloat64() * 1e12) },
	}
	for name, gen := range dists {
		xs := make([]uint64, 100_000)
		for i := range xs {
			xs[i] = gen(uint64(i))
		}
		slices.Sort(xs)
		xs = slices.Compact(xs)
		sb := newSplineBuilder(SplineError)
		for i, x := range xs {
			sb.add(x, uint64(i))
		}
		s, err := decodeSpline(sb.finish(nil), uint64(len(xs)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, x := range xs {
			p := int64(s.predict(x))
			if d := p - int64(i); d > SplineError || d < -SplineError {
				t.Fatalf("%s: key %d at %d predicted at %d", name, x, i, p)
			}
		}
		if name == "dense" && len(s.xs) != 2 {
			t.Errorf("dense keys took %d knots, want 2", len(s.xs))
		}
		t.Logf("%s: %d keys, %d knots", name, len(xs), len(s.xs))
	}
}

// TestDecodeSplineRadixMismatch: a key index whose radix table is ordered
// but disagrees with its knots (here entry 0 says two knots lie below top
// bits 0) is refused, where it decoded and predict returned an ordinal
// past the table's entries.
func TestDecodeSplineRadixMismatch(t *testing.T) {
	var b []byte
	for _, v := range []uint32{3, 1, 63, 1} { // knots, radix bits, shift, bound
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	for _, v := range []uint64{0, 10, 1 << 40, 0, 5, 6} { // xs, then ys
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	for _, v := range []uint32{2, 3, 3} {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	if s, err := decodeSpline(b, 100); err == nil {
		t.Fatalf("decoded a radix table that disagrees with its knots; predict(5) = %d", s.predict(5))
	}
	// The same knots with the radix table finish writes decode.
	copy(b[len(b)-12:], binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 0), 3), 3))
	if _, err := decodeSpline(b, 100); err != nil {
		t.Fatalf("the consistent radix table: %v", err)
	}
}
