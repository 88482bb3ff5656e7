package dbbench

import (
	"math"
	"math/rand/v2"
)

// YCSB's request distributions (its core generators, re-implemented from
// the published algorithms): Zipfian by Gray et al.'s method ("Quickly
// generating billion-record synthetic databases", SIGMOD 1994) as YCSB's
// ZipfianGenerator does it, its scrambled variant, the skewed-latest one
// and uniform. Each generator belongs to one benchmark thread and draws
// from that thread's source, so a run is reproducible for a --seed.

// ycsbZipfianConstant is YCSB's default skew (zipfian constant 0.99).
const ycsbZipfianConstant = 0.99

// ycsbScrambledItems and ycsbScrambledZeta are YCSB's ScrambledZipfian
// space: a Zipfian over 10^10 items, whose zeta is a published constant,
// hashed onto the key range so the popular keys are spread out.
const (
	ycsbScrambledItems = 10_000_000_000
	ycsbScrambledZeta  = 26.46902820178302
)

// zipfian draws from a Zipfian distribution over [0, items).
type zipfian struct {
	items       int64
	theta       float64
	alpha, eta  float64
	zeta2, zeta float64
	zetaItems   int64 // the item count zeta was summed up to
}

// newZipfian sums zeta over items; zetaN, when not 0, is a known sum.
func newZipfian(items int64, zetaN float64) *zipfian {
	z := &zipfian{theta: ycsbZipfianConstant}
	z.zeta2 = zetaSum(0, 2, z.theta, 0)
	z.alpha = 1 / (1 - z.theta)
	if zetaN != 0 {
		z.zeta, z.zetaItems = zetaN, items
	}
	z.setItems(items)
	return z
}

// zetaSum adds 1/i^theta for i in (from, to] to sum.
func zetaSum(from, to int64, theta, sum float64) float64 {
	for i := from; i < to; i++ {
		sum += 1 / math.Pow(float64(i+1), theta)
	}
	return sum
}

// setItems grows (or sets) the item count, extending zeta incrementally
// as YCSB does for the latest distribution's growing key space.
func (z *zipfian) setItems(items int64) {
	if items > z.zetaItems {
		z.zeta = zetaSum(z.zetaItems, items, z.theta, z.zeta)
		z.zetaItems = items
	}
	z.items = items
	z.eta = (1 - math.Pow(2/float64(items), 1-z.theta)) / (1 - z.zeta2/z.zeta)
}

func (z *zipfian) next(src *rand.Rand) int64 {
	u := src.Float64()
	uz := u * z.zeta
	if uz < 1 {
		return 0
	}
	if uz < 1+math.Pow(0.5, z.theta) {
		return 1
	}
	v := int64(float64(z.items) * math.Pow(z.eta*u-z.eta+1, z.alpha))
	return min(v, z.items-1)
}

// fnvHash64 is YCSB's Utils.fnvhash64: FNV-1 over the 8 bytes of v, low
// byte first, made non-negative.
func fnvHash64(v int64) int64 {
	h := uint64(0xCBF29CE484222325)
	for range 8 {
		h ^= uint64(v) & 0xff
		v >>= 8
		h *= 1099511628211
	}
	if r := int64(h); r < 0 {
		if r == math.MinInt64 {
			return r // Java's Math.abs leaves it so
		}
		return -r
	}
	return int64(h)
}

// ycsbChooser picks the key number of a read, update, scan or
// read-modify-write as YCSB's CoreWorkload does: uniform over the loaded
// records, scrambled Zipfian over the loaded records and the inserts the
// run expects (twice the insert proportion of the operations), or skewed
// towards the latest insert; a pick past the latest insert is drawn again.
type ycsbChooser struct {
	kind    string // "uniform", "zipfian", "latest"
	records int64  // the key space: loaded records, plus expected inserts for zipfian
	zipf    *zipfian
}

func newYCSBChooser(kind string, loaded, expectedInserts int64) *ycsbChooser {
	c := &ycsbChooser{kind: kind, records: loaded}
	if kind == "zipfian" {
		c.records += expectedInserts
	}
	switch kind {
	case "zipfian":
		c.zipf = newZipfian(ycsbScrambledItems, ycsbScrambledZeta)
	case "latest":
		c.zipf = newZipfian(max(loaded, 1), 0)
	}
	return c
}

// next picks a key number below last+1, last being the highest key number
// inserted so far (records-1 before any insert).
func (c *ycsbChooser) next(src *rand.Rand, last int64) int64 {
	switch c.kind {
	case "zipfian":
		for {
			if k := fnvHash64(c.zipf.next(src)) % c.records; k <= last {
				return k
			}
		}
	case "latest":
		if n := last + 1; n > c.zipf.items {
			c.zipf.setItems(n)
		}
		return last - c.zipf.next(src)
	default:
		return src.Int64N(c.records)
	}
}
