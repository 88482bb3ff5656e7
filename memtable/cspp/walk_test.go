package cspp

import (
	"math/rand/v2"
	"testing"
)

// TestMixedWalk mixes runs of Next and Prev of every length (so Prev
// follows sibling-leaf steps and general walks alike), calls Key only now
// and then (so stable key copies must follow key changes they did not see,
// and leaf keys are built late or never), closes the iterator now and then
// (sometimes bumping the reclamation generation, so that it re-seeks) and
// renews its registration every few steps, so that it registers again in
// every state, and checks every step against the model.
func TestMixedWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tr := New(32 << 20)
	m := fillRandom(t, tr, rng, 4000)
	it := tr.NewIter().(*Iter)
	it.steps = 5
	var i int
	var ok bool
	for round := 0; round < 400; round++ {
		switch rng.IntN(4) {
		case 0:
			i, ok = 0, it.First()
		case 1:
			i, ok = len(m)-1, it.Last()
		default:
			k := keyGen(rng)
			i = m.seek(string(k), ^uint64(0)>>8)
			ok = it.Seek(k, ^uint64(0)>>8)
		}
		checkAt(t, "position", it, ok, m, i)
		for run := 0; run < 6 && ok; run++ {
			forward := rng.IntN(2) == 0
			n := 1 + rng.IntN(80)
			for s := 0; s < n && ok; s++ {
				if forward {
					i, ok = i+1, it.Next()
				} else {
					i, ok = i-1, it.Prev()
				}
				if rng.IntN(20) == 0 {
					it.Close()
					if rng.IntN(2) == 0 {
						tr.a.rc.gen.Add(1) // as a reclamation pass would: re-seek
					}
				}
				if rng.IntN(3) == 0 || !ok {
					checkAt(t, "step", it, ok, m, i)
				} else if it.Seq() != m[i].seq || string(it.Value()) != m[i].value {
					t.Fatalf("step to %d: seq %d value %q, want %+v", i, it.Seq(), it.Value(), m[i])
				}
			}
		}
	}
}
