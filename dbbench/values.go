package dbbench

import (
	"math/rand/v2"

	"github.com/godbbench/godbbench/internal/cxxrand"
)

// ValueGen is db_bench's RandomGenerator: a buffer of at least 1 MiB built
// from 100-byte pieces, each a random printable string of
// int(100*compression_ratio) bytes (at least 1) repeated to 100 bytes, all
// drawn from ParkMiller(301). Generate hands out consecutive slices of it,
// wrapping to the start when the next slice would run past the end. Every
// thread makes its own generator per benchmark, exactly as db_bench does, so
// values are identical to C++ db_bench's for fixed-size values.
type ValueGen struct {
	data  []byte
	pos   int
	fixed int
	size  func() int // nil for fixed sizes, so the common path makes no call
}

// valueShape describes value sizes: fixed, or a distribution (not
// reproducible in db_bench either: it seeds those from std::random_device).
type valueShape struct {
	fixed    int
	dist     string // "fixed", "uniform", "normal"
	min, max int
	ratio    float64
}

// buildValueData returns the shared pattern buffer for a ratio and max size.
func buildValueData(ratio float64, maxSize int) []byte {
	size := max(1048576, maxSize)
	rnd := cxxrand.NewParkMiller(301)
	raw := int(100 * ratio)
	if raw < 1 {
		raw = 1
	}
	data := make([]byte, 0, size+100)
	piece := make([]byte, 0, 100)
	rawBuf := make([]byte, raw)
	for len(data) < size {
		for i := range rawBuf {
			rawBuf[i] = byte(' ' + rnd.Uniform(95))
		}
		piece = piece[:0]
		for len(piece) < 100 {
			piece = append(piece, rawBuf...)
		}
		data = append(data, piece[:100]...)
	}
	return data
}

func newValueGen(s *valueShape, data []byte) *ValueGen {
	g := &ValueGen{data: data}
	switch s.dist {
	case "uniform":
		lo, hi := s.min, s.max
		g.size = func() int { return lo + rand.IntN(hi-lo+1) }
	case "normal":
		lo, hi := s.min, s.max
		mean := float64(lo+hi) / 2
		sd := float64(hi-lo) / 6
		g.size = func() int {
			v := int(rand.NormFloat64()*sd + mean)
			return min(max(v, lo), hi)
		}
	default:
		g.fixed = s.fixed
	}
	return g
}

// GenerateN returns the next n bytes of the pattern.
func (g *ValueGen) GenerateN(n int) []byte {
	if g.pos+n > len(g.data) {
		g.pos = 0
	}
	g.pos += n
	return g.data[g.pos-n : g.pos]
}

// Generate returns the next value of the configured size.
func (g *ValueGen) Generate() []byte {
	if g.size == nil {
		return g.GenerateN(g.fixed)
	}
	return g.GenerateN(g.size())
}
