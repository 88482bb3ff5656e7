package hugemem

import (
	"testing"
	"time"
)

// TestPool checks exact-size reuse, zeroing of the used part, the bound
// (oldest evicted first) and a pool that keeps nothing.
func TestPool(t *testing.T) {
	p := Pool{Max: 2}
	var rs []*Region
	for _, n := range []int{HugePageSize, HugePageSize, 2 * HugePageSize} {
		r, err := Map(n)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	for i := range rs[0].Bytes[:100] {
		rs[0].Bytes[i] = 0xff
	}
	p.Put(rs[0], 100)
	p.Put(rs[1], 0)
	p.Put(rs[2], 0) // evicts rs[0], the oldest
	if p.Len() != 2 {
		t.Fatalf("pool keeps %d regions, want 2", p.Len())
	}
	if rs[0].Bytes != nil {
		t.Fatal("the evicted region was not freed")
	}
	if r := p.Get(3 * HugePageSize); r != nil {
		t.Fatal("got a region of another size")
	}
	if r := p.Get(2 * HugePageSize); r != rs[2] {
		t.Fatal("did not get the region of the size asked for")
	}
	r := p.Get(HugePageSize)
	if r != rs[1] {
		t.Fatal("did not get the kept region")
	}
	if p.Get(HugePageSize) != nil || p.Len() != 0 {
		t.Fatal("a region was handed out twice")
	}
	for i := range r.Bytes[:100] {
		r.Bytes[i] = 1
	}
	p.Put(r, 100)
	for i, b := range p.Get(HugePageSize).Bytes {
		if b != 0 {
			t.Fatalf("byte %d of a reused region is %d", i, b)
		}
	}
	var none Pool // Max 0: frees what it is given
	r2, _ := Map(HugePageSize)
	none.Put(r2, 0)
	if none.Len() != 0 || r2.Bytes != nil {
		t.Fatal("a pool of Max 0 kept a region")
	}
}

// TestPoolFreesIdleRegions checks that a pool with MaxIdle frees what it
// kept once that has passed, keeps what was put since, and starts again
// after it ran empty.
func TestPoolFreesIdleRegions(t *testing.T) {
	p := Pool{Max: 4, MaxIdle: 40 * time.Millisecond}
	for round := 0; round < 2; round++ {
		r, err := Map(HugePageSize)
		if err != nil {
			t.Fatal(err)
		}
		p.Put(r, 0)
		if p.Len() != 1 {
			t.Fatalf("round %d: pool keeps %d regions, want 1", round, p.Len())
		}
		deadline := time.Now().Add(5 * time.Second)
		for p.Len() != 0 {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: an idle region was never freed", round)
			}
			time.Sleep(5 * time.Millisecond)
		}
		if r.Bytes != nil {
			t.Fatalf("round %d: the expired region was not freed", round)
		}
	}
}

// TestPoolRecycle checks that Recycle keeps the regions of the size given
// (zeroed in full) and frees the others.
func TestPoolRecycle(t *testing.T) {
	p := Pool{Max: 4}
	keep, err := Map(HugePageSize)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Map(3 * HugePageSize)
	if err != nil {
		t.Fatal(err)
	}
	keep.Bytes[len(keep.Bytes)-1] = 7
	p.Recycle([]*Region{keep, other}, HugePageSize)
	if other.Bytes != nil || p.Len() != 1 {
		t.Fatalf("other region freed: %v, pool keeps %d; want true, 1", other.Bytes == nil, p.Len())
	}
	r := p.Get(HugePageSize)
	if r != keep || r.Bytes[len(r.Bytes)-1] != 0 {
		t.Fatal("the kept region did not come back whole and zeroed")
	}
	_ = r.Free()
}

// TestReleaseKept checks that ReleaseKept frees what every pool keeps,
// and that a pool keeps regions again afterwards.
func TestReleaseKept(t *testing.T) {
	a, b := Pool{Max: 2}, Pool{Max: 2, MaxIdle: time.Hour}
	var rs []*Region
	for range 3 {
		r, err := Map(HugePageSize)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	a.Put(rs[0], 0)
	a.Put(rs[1], 0)
	b.Put(rs[2], 0)
	if n := ReleaseKept(); n < 3 {
		t.Fatalf("ReleaseKept freed %d regions, want at least 3", n)
	}
	if a.Len() != 0 || b.Len() != 0 {
		t.Fatalf("pools keep %d and %d regions after ReleaseKept", a.Len(), b.Len())
	}
	for i, r := range rs {
		if r.Bytes != nil {
			t.Fatalf("region %d was not freed", i)
		}
	}
	r, _ := Map(HugePageSize)
	a.Put(r, 0)
	if a.Get(HugePageSize) != r {
		t.Fatal("the pool keeps nothing after ReleaseKept")
	}
	_ = r.Free()
}
