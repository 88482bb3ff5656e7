package sst

import (
	"math/rand/v2"
	"testing"
)

// TestBlockIndexAgainstMap runs random puts, removes and gets on a
// blockIndex and on a Go map side by side, with keys drawn from a small
// space so that runs collide, wrap around the array and lose entries from
// their middle.
func TestBlockIndexAgainstMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var x blockIndex
	model := map[cacheKey]int32{}
	for step := range 200000 {
		k := cacheKey{file: uint64(rng.IntN(4)), off: uint64(rng.IntN(600)) * 2333}
		switch rng.IntN(3) {
		case 0:
			if _, ok := model[k]; !ok {
				id := int32(rng.IntN(1 << 20))
				x.put(k, id)
				model[k] = id
			}
		case 1:
			x.remove(k)
			delete(model, k)
		}
		id, ok := x.get(k)
		want, wantOK := model[k]
		if ok != wantOK || id != want {
			t.Fatalf("step %d: get %v = %d, %v; want %d, %v", step, k, id, ok, want, wantOK)
		}
		if x.n != len(model) {
			t.Fatalf("step %d: %d keys, want %d", step, x.n, len(model))
		}
	}
	seen := 0
	x.each(func(id int32) { seen++ })
	if seen != len(model) {
		t.Fatalf("each saw %d keys, want %d", seen, len(model))
	}
	for k, want := range model {
		if id, ok := x.get(k); !ok || id != want {
			t.Fatalf("final get %v = %d, %v; want %d", k, id, ok, want)
		}
	}
}
