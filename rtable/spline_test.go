package rtable

import (
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
