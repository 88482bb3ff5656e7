package dbbench

import "math"

// stdNormal reproduces, draw for draw, a default-constructed
// std::default_random_engine feeding std::normal_distribution<double> as
// libstdc++ (GCC 12, which built Debian's db_bench 7.8.3) implements them:
//
//   - the engine is minstd_rand0: state 1, each draw state = state*16807 mod
//     2147483647, returning the new state (1 .. 2147483646);
//   - a uniform double in [0, 1) is generate_canonical<double, 53>: with
//     R = 2147483646 (the engine's range), two draws a, b give
//     ((a-1) + (b-1)*R) / R², rounded as double after each step (R² rounded
//     once), and a result of 1 becomes the largest double below 1;
//   - the normal is Marsaglia's polar method: x = 2u-1 then y = 2u-1 until
//     0 < x²+y² <= 1, m = sqrt(-2 ln(r²)/r²); y*m is returned now and x*m
//     kept for the next call; each is scaled as v*stddev + mean.
//
// Explicit float64 conversions keep the compiler from fusing a multiply and
// an add, which the C++ build (x86-64 without -mfma) does not do either.
type stdNormal struct {
	state        uint64
	mean, stddev float64
	saved        float64
	haveSaved    bool
}

const (
	minstdModulus = 2147483647
	minstdRange   = float64(minstdModulus - 1) // max - min + 1 of minstd_rand0
)

func newStdNormal(mean, stddev float64) *stdNormal {
	return &stdNormal{state: 1, mean: mean, stddev: stddev}
}

// engineDraw is minstd_rand0's next output.
func (n *stdNormal) engineDraw() uint64 {
	n.state = n.state * 16807 % minstdModulus
	return n.state
}

// canonical is generate_canonical<double, 53> over two engine draws.
func (n *stdNormal) canonical() float64 {
	low := float64(n.engineDraw() - 1)
	high := float64(n.engineDraw() - 1)
	sum := low + float64(high*minstdRange)
	u := sum / float64(minstdRange*minstdRange)
	if u >= 1 {
		u = math.Nextafter(1, 0)
	}
	return u
}

// next is the distribution's next value.
func (n *stdNormal) next() float64 {
	var v float64
	if n.haveSaved {
		n.haveSaved = false
		v = n.saved
	} else {
		var x, y, r2 float64
		for {
			x = float64(2*n.canonical()) - 1
			y = float64(2*n.canonical()) - 1
			r2 = float64(x*x) + float64(y*y)
			if r2 <= 1 && r2 != 0 {
				break
			}
		}
		m := math.Sqrt(-2 * math.Log(r2) / r2)
		n.saved = x * m
		n.haveSaved = true
		v = y * m
	}
	return float64(v*n.stddev) + n.mean
}
