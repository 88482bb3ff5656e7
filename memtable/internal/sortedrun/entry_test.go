package sortedrun

import (
	"math/rand/v2"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// TestCompareMatchesInternalOrder checks that the prefix shortcut orders
// entries exactly as base.Compare does, on short keys, keys with zero bytes
// (which pad like a shorter key) and keys sharing their first 8 bytes.
func TestCompareMatchesInternalOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var chunks Chunks[byte]
	chunks.ChunkLen = 1 << 16
	key := func() []byte {
		k := make([]byte, rng.IntN(12))
		for i := range k {
			k[i] = []byte{0, 1, 'a', 0xff}[rng.IntN(4)]
		}
		return k
	}
	for i := 0; i < 20000; i++ {
		a := NewEntry(&chunks, uint64(rng.IntN(3)), base.Kind(rng.IntN(2)), key(), nil)
		b := NewEntry(&chunks, uint64(rng.IntN(3)), base.Kind(rng.IntN(2)), key(), nil)
		want := base.Compare(a.Key, a.Trailer, b.Key, b.Trailer)
		if got := Compare(a, b); got != want {
			t.Fatalf("Compare(%q@%d, %q@%d) = %d, want %d", a.Key, a.Trailer, b.Key, b.Trailer, got, want)
		}
		tb := NewTarget(b.Key, b.Trailer)
		if got := a.Before(&tb); got != (want < 0) {
			t.Fatalf("(%q@%d).Before(%q@%d) = %v, want %v", a.Key, a.Trailer, b.Key, b.Trailer, got, want < 0)
		}
	}
}
