package cspp

import (
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// liveSlots counts the slots reachable from the root: nodes, pins, current
// blocks (at capacity) and values.
func (t *Trie) liveSlots() uint64 {
	a := &t.a
	var total uint64
	var walk func(n uint32)
	walk = func(n uint32) {
		h := a.load(n)
		total += uint64(nodeSlots(hdrClass(h), int(hdrZlen(h))))
		if pin := a.load(n + 1); pin != 0 {
			blk, num, _ := a.block(pin)
			total += 1 + 1 + uint64(entrySlots*blockCap(num))
			for k := uint32(0); k < num; k++ {
				total += uint64(slotsFor(int(a.slots[entryAt(blk, k)+3])))
			}
		}
		var ch children
		a.gather(n, h, &ch)
		for i := 0; i < ch.n; i++ {
			walk(ch.links[i])
		}
	}
	walk(rootOffset)
	return total
}

// TestDeadWeight reports how much of the arena replaced nodes and outgrown
// blocks occupy for random keys (numbers quoted in the package doc): slots
// handed out minus slots reachable, so runs waiting in limbo or on a free
// list count as dead. Reuse must keep random 16-byte keys well below the
// 12.9 dead bytes an entry measured before reclamation.
func TestDeadWeight(t *testing.T) {
	for _, kind := range []string{"rand16", "rand8", "seq16"} {
		const n = 200000
		tr := New(n * 100)
		src := keySource{kind: kind}
		var buf [16]byte
		for i := 0; i < n; i++ {
			if err := tr.Add(uint64(i+1), base.KindSet, src.next(buf[:]), nil); err != nil {
				t.Fatal(err)
			}
		}
		used := tr.a.used() - firstFreeSlot
		live := tr.liveSlots() - directNodeSlots
		runs, retired, _, reused := tr.a.reclaimStats()
		dead := float64((used-live)*4) / n
		t.Logf("%s: %d entries, %.1f bytes/entry used, %.1f live, %.1f dead; retired %.1f (%.2f runs an Add), reused %.1f",
			kind, n, float64(used*4)/n, float64(live*4)/n, dead, float64(retired*4)/n,
			float64(runs)/n, float64(reused*4)/n)
		if live > used {
			t.Fatalf("live %d > used %d", live, used)
		}
		if dead > 3 {
			t.Errorf("%s: %.1f dead bytes an entry, want <= 3", kind, dead)
		}
	}
}
