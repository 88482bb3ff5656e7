package memtablerepbench

import (
	"sync"

	"github.com/godbbench/godbbench/internal/cxxrand"
)

// keyMode is KeyGenerator's WriteMode.
type keyMode int

const (
	keysSequential   keyMode = iota // 0, 1, 2, ...
	keysRandom                      // Random64 % N
	keysUniqueRandom                // a shuffle of 0..N-1
)

// keyBatch is how many keys a thread takes from the shared generator at a
// time: one mutex round trip per 256 keys instead of per key.
const keyBatch = 256

// keyGenerator is memtablerep_bench's KeyGenerator, shared by a benchmark's
// threads.
type keyGenerator struct {
	mu     sync.Mutex
	mode   keyMode
	num    uint64
	next   uint64
	values []uint64
	rng    *cxxrand.MT64
}

func newKeyGenerator(rng *cxxrand.MT64, mode keyMode, num uint64, seed int64) *keyGenerator {
	g := &keyGenerator{mode: mode, num: num, rng: rng}
	if mode == keysUniqueRandom {
		g.values = make([]uint64, num)
		for i := range g.values {
			g.values[i] = uint64(i)
		}
		cxxrand.Shuffle(g.values, uint32(seed))
	}
	return g
}

// fill writes the next len(buf) keys into buf.
func (g *keyGenerator) fill(buf []uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i := range buf {
		switch g.mode {
		case keysSequential:
			buf[i] = g.next
			g.next++
		case keysRandom:
			buf[i] = g.rng.Next() % max(g.num, 1) // --num_operations=0 would divide by zero
		case keysUniqueRandom:
			if g.next < uint64(len(g.values)) {
				buf[i] = g.values[g.next]
			}
			g.next++
		}
	}
}

// keyStream is one thread's view of a keyGenerator.
type keyStream struct {
	g   *keyGenerator
	buf [keyBatch]uint64
	pos int
}

func newKeyStream(g *keyGenerator) *keyStream { return &keyStream{g: g, pos: keyBatch} }

func (s *keyStream) next() uint64 {
	if s.pos == keyBatch {
		s.g.fill(s.buf[:])
		s.pos = 0
	}
	k := s.buf[s.pos]
	s.pos++
	return k
}

// valueGenerator is memtablerep_bench's RandomGenerator: consecutive slices
// of a shared random buffer, wrapping to the start when one does not fit.
type valueGenerator struct {
	data []byte
	pos  int
}

func (v *valueGenerator) generate(n int) []byte {
	if v.pos+n > len(v.data) {
		v.pos = 0
	}
	v.pos += n
	return v.data[v.pos-n : v.pos]
}
