package hugemem

import "testing"

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
