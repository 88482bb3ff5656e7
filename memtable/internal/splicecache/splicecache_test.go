package splicecache

import "testing"

// TestClaim checks the slot an insert takes: the free one whose last prefix
// is the greatest below its own, slot 0 when none is below, and no splice
// when that slot is busy.
func TestClaim(t *testing.T) {
	var c Cache[[4]uint32]
	claim := func(pfx uint64) (int, bool) {
		i, sp := c.Claim(pfx)
		if sp != nil && sp != &c.slots[i] {
			t.Fatalf("Claim(%d) returned slot %d with another slot's splice", pfx, i)
		}
		return i, sp != nil
	}
	if i, ok := claim(0); i != 0 || !ok {
		t.Fatalf("Claim(0) on an empty cache = %d %v, want slot 0", i, ok)
	}
	c.Release(0, 100)
	for _, tc := range []struct {
		pfx  uint64
		want int
	}{{101, 0}, {100, 1}, {50, 1}} {
		i, ok := claim(tc.pfx)
		if i != tc.want || !ok {
			t.Fatalf("Claim(%d) = %d %v, want %d", tc.pfx, i, ok, tc.want)
		}
		c.Release(i, c.prefix[i].Load())
	}
	c.Release(1, 90)
	c.Release(2, 95)
	if i, _ := claim(96); i != 2 {
		t.Fatalf("Claim(96) = slot %d, want 2 (prefix 95)", i)
	}
	if i, ok := claim(97); i != 2 || ok {
		t.Fatalf("Claim(97) while slot 2 is busy = %d %v, want 2 and no splice", i, ok)
	}
	c.Release(2, 96)
	for i := range Slots {
		c.Release(i, 500)
	}
	if i, ok := claim(500); i != 0 || !ok {
		t.Fatalf("Claim(500) with no slot below = %d %v, want slot 0", i, ok)
	}
}
