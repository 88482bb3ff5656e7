package cxxrand

// LibcRand is glibc's rand() (random(3)'s default additive feedback
// generator, TYPE_3: 31 words, taps 3 and 31), so that a program calling
// rand() without srand() is reproduced: the state is seeded from 1 by
// Park-Miller steps, the first 310 outputs are discarded, and each output
// is the 32-bit sum of the words 31 and 3 back, shifted right once.
// Words 31 to 33 are copies of words 0 to 2, the start glibc's
// srandom_r leaves.
type LibcRand struct {
	ring [31]uint32 // the last 31 words, word i at i % 31
	i    int        // the index of the next word
}

// NewLibcRand returns the generator as srand(seed) leaves it; db_bench's
// rand() calls see srand(1), the state a process starts with.
func NewLibcRand(seed uint32) *LibcRand {
	r := &LibcRand{}
	if seed == 0 {
		seed = 1 // glibc's srandom replaces a zero seed by 1
	}
	word := int32(seed)
	r.ring[0] = uint32(word)
	for i := 1; i < 31; i++ {
		// 16807 * word mod (2^31 - 1), by Schrage's method as glibc does it.
		hi, lo := word/127773, word%127773
		word = 16807*lo - 2836*hi
		if word < 0 {
			word += 2147483647
		}
		r.ring[i] = uint32(word)
	}
	// Words 31 to 33 copy words 0 to 2 (their ring slots already hold
	// them); the sums start at word 34, and words 34 to 343 are discarded.
	r.i = 34
	for range 310 {
		r.step()
	}
	return r
}

func (r *LibcRand) step() uint32 {
	w := r.ring[(r.i-31)%31] + r.ring[(r.i-3)%31]
	r.ring[r.i%31] = w
	r.i++
	if r.i == 31*1000 {
		r.i = 31 // keep the index small; only i mod 31 matters
	}
	return w
}

// Next returns the next rand() value, in [0, 2^31).
func (r *LibcRand) Next() int32 { return int32(r.step() >> 1) }
