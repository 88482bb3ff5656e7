package bench

// The generators memtablerep_bench uses, reproduced bit for bit so key
// streams match the C++ tool for the same --seed:
//
//   - mt64 is std::mt19937_64, RocksDB's Random64 (readrandom's rand % N and
//     readwrite's keys).
//   - mt32 with shuffle is std::shuffle(first, last, std::mt19937(seed)) as
//     libstdc++ (GCC 11 and later) implements it: fillrandom's key order.
//   - parkMiller is RocksDB's Random (util/random.h), which builds the value
//     bytes with Random(301).RandomString.

// mt64 is std::mt19937_64.
type mt64 struct {
	state [312]uint64
	pos   int
}

func newMT64(seed uint64) *mt64 {
	r := &mt64{pos: 312}
	r.state[0] = seed
	for i := 1; i < 312; i++ {
		p := r.state[i-1]
		r.state[i] = 6364136223846793005*(p^(p>>62)) + uint64(i)
	}
	return r
}

func (r *mt64) regenerate() {
	const upper, lower, matrix = 0xFFFFFFFF80000000, 0x7FFFFFFF, 0xB5026F5AA96619E9
	for i := 0; i < 312; i++ {
		y := r.state[i]&upper | r.state[(i+1)%312]&lower
		v := r.state[(i+156)%312] ^ y>>1
		if y&1 != 0 {
			v ^= matrix
		}
		r.state[i] = v
	}
	r.pos = 0
}

func (r *mt64) next() uint64 {
	if r.pos == 312 {
		r.regenerate()
	}
	y := r.state[r.pos]
	r.pos++
	y ^= y >> 29 & 0x5555555555555555
	y ^= y << 17 & 0x71D67FFFEDA60000
	y ^= y << 37 & 0xFFF7EEE000000000
	return y ^ y>>43
}

// mt32 is std::mt19937.
type mt32 struct {
	state [624]uint32
	pos   int
}

func newMT32(seed uint32) *mt32 {
	r := &mt32{pos: 624}
	r.state[0] = seed
	for i := 1; i < 624; i++ {
		p := r.state[i-1]
		r.state[i] = 1812433253*(p^(p>>30)) + uint32(i)
	}
	return r
}

func (r *mt32) regenerate() {
	const upper, lower, matrix = 0x80000000, 0x7FFFFFFF, 0x9908B0DF
	for i := 0; i < 624; i++ {
		y := r.state[i]&upper | r.state[(i+1)%624]&lower
		v := r.state[(i+397)%624] ^ y>>1
		if y&1 != 0 {
			v ^= matrix
		}
		r.state[i] = v
	}
	r.pos = 0
}

func (r *mt32) next() uint32 {
	if r.pos == 624 {
		r.regenerate()
	}
	y := r.state[r.pos]
	r.pos++
	y ^= y >> 11
	y ^= y << 7 & 0x9D2C5680
	y ^= y << 15 & 0xEFC60000
	return y ^ y>>18
}

// below returns a value in [0, n) for 1 <= n <= 2^32-1 as libstdc++'s
// uniform_int_distribution does with a 32-bit engine: Lemire's
// multiply-shift, rejecting the low products that would bias it.
func (r *mt32) below(n uint64) uint64 {
	rng := uint32(n)
	prod := uint64(r.next()) * n
	if low := uint32(prod); low < rng {
		threshold := -rng % rng
		for low < threshold {
			prod = uint64(r.next()) * n
			low = uint32(prod)
		}
	}
	return prod >> 32
}

// shuffle permutes v as std::shuffle(v.begin(), v.end(), std::mt19937(seed)).
// When n*n fits in the engine's range, libstdc++ draws the swap positions of
// two successive elements from one number (x / (r+1), x % (r+1)).
func shuffle(v []uint64, seed uint32) {
	n := uint64(len(v))
	if n == 0 {
		return
	}
	g := newMT32(seed)
	const engineRange = 0xFFFFFFFF
	if engineRange/n >= n {
		i := uint64(1)
		if n%2 == 0 {
			j := g.below(2)
			v[i], v[j] = v[j], v[i]
			i++
		}
		for i != n {
			r := i + 1 // positions 0..i for element i, 0..i+1 for element i+1
			x := g.below(r * (r + 1))
			a, b := x/(r+1), x%(r+1)
			v[i], v[a] = v[a], v[i]
			v[i+1], v[b] = v[b], v[i+1]
			i += 2
		}
		return
	}
	for i := uint64(1); i < n; i++ {
		j := g.below(i + 1)
		v[i], v[j] = v[j], v[i]
	}
}

// parkMiller is RocksDB's Random: seed = seed * 16807 mod (2^31 - 1).
type parkMiller struct{ seed uint32 }

func newParkMiller(s uint32) *parkMiller {
	s &= 0x7FFFFFFF
	if s == 0 || s == 0x7FFFFFFF {
		s = 1
	}
	return &parkMiller{seed: s}
}

func (r *parkMiller) next() uint32 {
	const m, a = 0x7FFFFFFF, 16807
	p := uint64(r.seed) * a
	// (p >> 31) + (p & m) is p mod m up to one subtraction, as in RocksDB.
	s := uint32((p >> 31) + (p & m))
	if s > m {
		s -= m
	}
	r.seed = s
	return s
}

// randomString is Random::RandomString: each byte ' ' + Uniform(95).
func (r *parkMiller) randomString(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = ' ' + byte(r.next()%95)
	}
	return b
}
