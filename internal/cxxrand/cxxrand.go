// Package cxxrand reproduces, bit for bit, the random number generators
// RocksDB's benchmark tools draw from, so Go ports produce the same keys and
// values as the C++ tools for the same seed:
//
//   - MT64 is std::mt19937_64 (RocksDB's Random64): db_bench seeds one per
//     thread with seed_base + the process-wide ordinal of the thread;
//     memtablerep_bench uses one for its random keys.
//   - MT32 with Shuffle is std::shuffle(first, last, std::mt19937(seed)) as
//     libstdc++ 11+ implements it (filluniquerandom's and memtablerep_bench's
//     fillrandom key orders).
//   - ParkMiller is RocksDB's util/random.h Random, the source of the value
//     bytes (seeded with 301 by both tools).
//   - LibcRand is glibc's rand(), which db_bench's mixgraph calls for the
//     noise on its sine-wave request rate.
//
// Each generator costs a few ns per draw and allocates nothing after
// construction.
package cxxrand

import "math/bits"

const (
	mt64N        = 312
	mt64M        = 156
	mt64MatrixA  = 0xB5026F5AA96619E9
	mt64UpperMsk = 0xFFFFFFFF80000000
	mt64LowerMsk = 0x7FFFFFFF
)

// MT64 is a 64-bit Mersenne Twister identical to std::mt19937_64.
type MT64 struct {
	mt  [mt64N]uint64
	idx int
}

// NewMT64 seeds a generator as std::mt19937_64(seed) does.
func NewMT64(seed uint64) *MT64 {
	r := &MT64{}
	r.Seed(seed)
	return r
}

// Seed re-initialises the state.
func (r *MT64) Seed(seed uint64) {
	r.mt[0] = seed
	for i := 1; i < mt64N; i++ {
		prev := r.mt[i-1]
		r.mt[i] = 6364136223846793005*(prev^(prev>>62)) + uint64(i)
	}
	r.idx = mt64N
}

func (r *MT64) twist() {
	mt := &r.mt
	// The recurrence mixes element i with i+1 and i+M (indices mod N); the
	// three loops below cover i+M < N, i+M >= N, and the last element,
	// whose successor is element 0, so no index needs a modulo.
	i := 0
	for ; i < mt64N-mt64M; i++ {
		mt[i] = mt[i+mt64M] ^ mt64Mix(mt[i], mt[i+1])
	}
	for ; i < mt64N-1; i++ {
		mt[i] = mt[i+mt64M-mt64N] ^ mt64Mix(mt[i], mt[i+1])
	}
	mt[mt64N-1] = mt[mt64M-1] ^ mt64Mix(mt[mt64N-1], mt[0])
	r.idx = 0
}

// mt64Mix is the twist of one element: the upper bit of cur and the lower
// bits of next, shifted right, xored with the matrix when odd.
func mt64Mix(cur, next uint64) uint64 {
	x := cur&mt64UpperMsk | next&mt64LowerMsk
	return x>>1 ^ -(x&1)&mt64MatrixA
}

// Next returns the next 64-bit output.
func (r *MT64) Next() uint64 {
	if r.idx >= mt64N {
		r.twist()
	}
	x := r.mt[r.idx]
	r.idx++
	x ^= (x >> 29) & 0x5555555555555555
	x ^= (x << 17) & 0x71D67FFFEDA60000
	x ^= (x << 37) & 0xFFF7EEE000000000
	x ^= x >> 43
	return x
}

// Uniform draws from [0, n) (n > 0) as Random64::Uniform does:
// std::uniform_int_distribution<uint64_t>(0, n-1) over std::mt19937_64,
// which libstdc++ 11+ computes with Lemire's multiply-shift in 128 bits,
// rejecting draws whose low half falls below 2^64 mod n.
func (r *MT64) Uniform(n uint64) uint64 {
	hi, lo := bits.Mul64(r.Next(), n)
	if lo < n {
		threshold := -n % n
		for lo < threshold {
			hi, lo = bits.Mul64(r.Next(), n)
		}
	}
	return hi
}

// OneIn is Random64::OneIn: true about once in n draws (Uniform(n) == 0).
func (r *MT64) OneIn(n uint64) bool { return r.Uniform(n) == 0 }

// MT32 is std::mt19937.
type MT32 struct {
	mt  [624]uint32
	idx int
}

// NewMT32 seeds a generator as std::mt19937(seed) does.
func NewMT32(seed uint32) *MT32 {
	r := &MT32{}
	r.mt[0] = seed
	for i := 1; i < 624; i++ {
		prev := r.mt[i-1]
		r.mt[i] = 1812433253*(prev^(prev>>30)) + uint32(i)
	}
	r.idx = 624
	return r
}

// Next returns the next 32-bit output.
func (r *MT32) Next() uint32 {
	if r.idx >= 624 {
		for i := 0; i < 624; i++ {
			x := (r.mt[i] & 0x80000000) | (r.mt[(i+1)%624] & 0x7fffffff)
			xa := x >> 1
			if x&1 != 0 {
				xa ^= 0x9908b0df
			}
			r.mt[i] = r.mt[(i+397)%624] ^ xa
		}
		r.idx = 0
	}
	y := r.mt[r.idx]
	r.idx++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// uniform32 draws from [0, n) (n <= 2^32) the way libstdc++ 11+
// uniform_int_distribution does for a 32-bit engine: Lemire's nearly
// divisionless multiply-shift with rejection.
func (r *MT32) uniform32(n uint64) uint64 {
	rng := uint32(n)
	product := uint64(r.Next()) * uint64(rng)
	low := uint32(product)
	if low < rng {
		threshold := -rng % rng
		for low < threshold {
			product = uint64(r.Next()) * uint64(rng)
			low = uint32(product)
		}
	}
	return product >> 32
}

// uniformRange draws from [a, b] as std::uniform_int_distribution<uint64>(a, b)
// does with std::mt19937 under libstdc++ (GCC 11 and later).
func (r *MT32) uniformRange(a, b uint64) uint64 {
	const urngRange = uint64(0xFFFFFFFF)
	urange := b - a
	switch {
	case urngRange > urange:
		return a + r.uniform32(urange+1)
	case urngRange == urange:
		return a + uint64(r.Next())
	default:
		// Upscaling: combine draws, as libstdc++ does.
		const uerngRange = urngRange + 1
		var ret, tmp uint64
		for {
			tmp = uerngRange * r.uniformRange(0, urange/uerngRange)
			ret = tmp + uint64(r.Next())
			if ret <= urange && ret >= tmp {
				break
			}
		}
		return a + ret
	}
}

// Shuffle permutes v exactly as libstdc++'s std::shuffle(v.begin(), v.end(),
// std::mt19937(seed)) does, including its two-positions-per-draw path used
// when the range squared fits in the generator's range.
func Shuffle(v []uint64, seed uint32) {
	n := uint64(len(v))
	if n == 0 {
		return
	}
	g := NewMT32(seed)
	const urngRange = uint64(0xFFFFFFFF)
	if urngRange/n >= n {
		i := uint64(1)
		if n%2 == 0 {
			j := g.uniformRange(0, 1)
			v[i], v[j] = v[j], v[i]
			i++
		}
		for i != n {
			swapRange := i + 1
			x := g.uniformRange(0, swapRange*(swapRange+1)-1)
			p1, p2 := x/(swapRange+1), x%(swapRange+1)
			v[i], v[p1] = v[p1], v[i]
			i++
			v[i], v[p2] = v[p2], v[i]
			i++
		}
		return
	}
	for i := uint64(1); i < n; i++ {
		j := g.uniformRange(0, i)
		v[i], v[j] = v[j], v[i]
	}
}

// ParkMiller is RocksDB's util/random.h Random: seed = seed * 16807 mod (2^31-1).
type ParkMiller struct{ seed uint32 }

// NewParkMiller seeds as Random(s) does.
func NewParkMiller(s uint32) *ParkMiller {
	s &= 2147483647
	if s == 0 || s == 2147483647 {
		s = 1 // RocksDB's Random avoids both fixed points
	}
	return &ParkMiller{seed: s}
}

// Next returns the next value in [1, 2^31-2].
func (r *ParkMiller) Next() uint32 {
	const m = 2147483647
	product := uint64(r.seed) * 16807
	s := uint32((product >> 31) + (product & m))
	if s > m {
		s -= m
	}
	r.seed = s
	return s
}

// Uniform returns a value in [0, n).
func (r *ParkMiller) Uniform(n uint32) uint32 { return r.Next() % n }
