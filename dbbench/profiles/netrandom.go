package profiles

import (
	"math"
	"math/bits"
)

// DotNetRandom reproduces System.Random constructed with an explicit seed in
// .NET 6 and later (the "compat seed" implementation kept for programs that
// rely on the historical sequence): a variant of Knuth's subtractive
// generator over 55 int32 words. The workload plan is drawn from it, so every
// call here must return what .NET returns, bit for bit:
//
//   - int32 arithmetic wraps exactly as C#'s unchecked arithmetic does;
//   - Sample multiplies by the double nearest 1/(2^31-1), it does not divide;
//   - NextInt64(min, max) builds 64 bits from Next(2^22), Next(2^22) and
//     Next(2^20) at bit offsets 0, 22 and 44, keeps the top ceil(log2(range))
//     bits and rejects values >= range (the .NET 6+ compat algorithm; .NET 5
//     had no NextInt64).
//
// A DotNetRandom is not safe for concurrent use.
type DotNetRandom struct {
	seedArray [56]int32
	inext     int
	inextp    int
}

// knuthMagic is the starting constant of the seeding loop (digits of the
// golden ratio), as in .NET.
const knuthMagic = 161803398

// inverseMaxInt32 is the double nearest 1/(2^31-1); .NET multiplies by this
// constant, and multiplying is not always equal to dividing, so we do the same.
const inverseMaxInt32 = 1.0 / math.MaxInt32

// NewDotNetRandom returns the generator `new System.Random(seed)` would be.
func NewDotNetRandom(seed int32) *DotNetRandom {
	r := &DotNetRandom{}
	var subtraction int32
	if seed == math.MinInt32 {
		subtraction = math.MaxInt32
	} else if seed < 0 {
		subtraction = -seed
	} else {
		subtraction = seed
	}
	mj := int32(knuthMagic) - subtraction
	r.seedArray[55] = mj
	mk := int32(1)
	ii := 0
	for i := 1; i < 55; i++ {
		ii += 21
		if ii >= 55 {
			ii -= 55
		}
		r.seedArray[ii] = mk
		mk = mj - mk
		if mk < 0 {
			mk += math.MaxInt32
		}
		mj = r.seedArray[ii]
	}
	for k := 1; k < 5; k++ {
		for i := 1; i < 56; i++ {
			n := i + 30
			if n >= 55 {
				n -= 55
			}
			r.seedArray[i] -= r.seedArray[1+n]
			if r.seedArray[i] < 0 {
				r.seedArray[i] += math.MaxInt32
			}
		}
	}
	r.inext = 0
	r.inextp = 21
	return r
}

// Next returns the next raw sample in [0, 2^31-1) (System.Random.Next()).
func (r *DotNetRandom) Next() int32 {
	in := r.inext + 1
	if in >= 56 {
		in = 1
	}
	inp := r.inextp + 1
	if inp >= 56 {
		inp = 1
	}
	v := r.seedArray[in] - r.seedArray[inp]
	if v == math.MaxInt32 {
		v--
	}
	if v < 0 {
		v += math.MaxInt32
	}
	r.seedArray[in] = v
	r.inext = in
	r.inextp = inp
	return v
}

// Sample returns a double in [0, 1) (System.Random.NextDouble()).
func (r *DotNetRandom) Sample() float64 {
	return float64(r.Next()) * inverseMaxInt32
}

// NextN returns System.Random.Next(maxValue): trunc(Sample()*maxValue).
// maxValue must be >= 0.
func (r *DotNetRandom) NextN(maxValue int32) int32 {
	return int32(r.Sample() * float64(maxValue))
}

// NextRange returns System.Random.Next(minValue, maxValue), minValue <= maxValue.
func (r *DotNetRandom) NextRange(minValue, maxValue int32) int32 {
	span := int64(maxValue) - int64(minValue)
	if span <= math.MaxInt32 {
		return int32(r.Sample()*float64(span)) + minValue
	}
	return int32(int64(r.sampleForLargeRange()*float64(span)) + int64(minValue))
}

// sampleForLargeRange is .NET's GetSampleForLargeRange: two raw samples, the
// second choosing the sign of the first, mapped onto [0, 1).
func (r *DotNetRandom) sampleForLargeRange() float64 {
	v := r.Next()
	if r.Next()%2 == 0 {
		v = -v
	}
	d := float64(v)
	d += math.MaxInt32 - 1
	d /= 2*math.MaxInt32 - 1
	return d
}

// nextUint64 is the compat implementation's 64-bit draw: three calls to
// Next(n) placed at bit offsets 0, 22 and 44.
func (r *DotNetRandom) nextUint64() uint64 {
	lo := uint64(uint32(r.NextN(1 << 22)))
	mid := uint64(uint32(r.NextN(1 << 22)))
	hi := uint64(uint32(r.NextN(1 << 20)))
	return lo | mid<<22 | hi<<44
}

// NextInt64Range returns System.Random.NextInt64(minValue, maxValue) for a
// seeded Random on .NET 6 or later, minValue <= maxValue.
func (r *DotNetRandom) NextInt64Range(minValue, maxValue int64) int64 {
	span := uint64(maxValue - minValue)
	if span <= 1 {
		return minValue
	}
	// BitOperations.Log2Ceiling(span) for span > 1.
	width := bits.Len64(span - 1)
	for {
		v := r.nextUint64() >> (64 - width)
		if v < span {
			return int64(v) + minValue
		}
	}
}
