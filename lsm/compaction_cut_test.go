package lsm

import (
	"fmt"
	"math/rand"
	"testing"
)

func grandparents(sizes uint64, ranges ...string) []*fileMeta {
	var gp []*fileMeta
	for i, r := range ranges {
		gp = append(gp, &fileMeta{num: uint64(i + 1), size: sizes, smallest: []byte(r[:1]), largest: []byte(r[1:])})
	}
	return gp
}

// feed passes keys with an output open of the given sizes to c and returns
// the keys it cut before.
func feed(c *outputCutter, keys []string, sizes []uint64) []string {
	var cuts []string
	for i, k := range keys {
		if c.cutBefore([]byte(k), sizes[i] > 0, sizes[i]) {
			cuts = append(cuts, k)
			c.cut([]byte(k))
		}
	}
	return cuts
}

func TestOutputCutterTargetSize(t *testing.T) {
	c := &outputCutter{target: 1000, maxBytes: 25000, inGap: true, dynamic: true}
	got := feed(c, []string{"a", "b", "c", "d"}, []uint64{0, 500, 999, 1000})
	if fmt.Sprint(got) != "[d]" {
		t.Fatalf("cuts %v, want [d]: only at the target size without grandparents", got)
	}
}

func TestOutputCutterEarlyAtBoundary(t *testing.T) {
	// Each boundary crossed raises the early-cut size by 5% of the
	// target from 50%: crossing 1 at 55%, 2 at 60%, 3 at 65%, 4 at 70%.
	c := &outputCutter{target: 1000, maxBytes: 25000, inGap: true, dynamic: true,
		grandparents: grandparents(100, "bd", "fh", "jl")}
	got := feed(c, []string{"a", "c", "e", "g", "i", "k"}, []uint64{0, 549, 599, 649, 700, 10})
	if fmt.Sprint(got) != "[i]" {
		t.Fatalf("cuts %v, want [i]: the fourth boundary at 70%%", got)
	}
	// Within a grandparent no early cut, however large the output.
	c = &outputCutter{target: 1000, maxBytes: 25000, inGap: true, dynamic: true,
		grandparents: grandparents(100, "bz")}
	if got := feed(c, []string{"c", "d", "e"}, []uint64{0, 800, 900}); got != nil {
		t.Fatalf("cuts %v inside one grandparent", got)
	}
	// Universal and FIFO (not dynamic) cut only at the target and the
	// overlap cap.
	c = &outputCutter{target: 1000, maxBytes: 25000, inGap: true,
		grandparents: grandparents(100, "bd", "fh", "jl")}
	if got := feed(c, []string{"a", "c", "e", "g", "i"}, []uint64{0, 549, 599, 900, 999}); got != nil {
		t.Fatalf("cuts %v without dynamic cuts", got)
	}
}

func TestOutputCutterSkipsWholeGrandparent(t *testing.T) {
	// From the gap before "b" to the gap after "d": the output would take
	// in the whole of [b,d], more than an eighth of the target: cut, so
	// neither output overlaps it.
	c := &outputCutter{target: 1000, maxBytes: 25000, inGap: true, dynamic: true,
		grandparents: grandparents(200, "bd", "fh")}
	if got := feed(c, []string{"a", "e"}, []uint64{0, 10}); fmt.Sprint(got) != "[e]" {
		t.Fatalf("cuts %v, want [e]", got)
	}
	if c.overlap != 0 {
		t.Fatalf("overlap after a cut in a gap = %d, want 0", c.overlap)
	}
	// A grandparent of at most an eighth of the target is not worth a cut.
	c = &outputCutter{target: 1000, maxBytes: 25000, inGap: true, dynamic: true,
		grandparents: grandparents(125, "bd", "fh")}
	if got := feed(c, []string{"a", "e"}, []uint64{0, 10}); got != nil {
		t.Fatalf("cuts %v skipping a small grandparent", got)
	}
}

func TestOutputCutterMaxCompactionBytes(t *testing.T) {
	c := &outputCutter{target: 1000, maxBytes: 250, inGap: true,
		grandparents: grandparents(200, "bd", "fh")}
	if got := feed(c, []string{"c", "g"}, []uint64{0, 100}); fmt.Sprint(got) != "[g]" {
		t.Fatalf("cuts %v, want [g]: 200 + 200 + 100 bytes pass 250", got)
	}
	if c.overlap != 200 {
		t.Fatalf("overlap after the cut = %d, want the 200 of [f,h]", c.overlap)
	}
}

func TestOutputCutterSharedBoundaryKey(t *testing.T) {
	// A key that ends one grandparent and starts the next lies in the
	// later, and an output starting there overlaps both.
	c := &outputCutter{target: 1000, maxBytes: 25000, inGap: true, dynamic: true,
		grandparents: grandparents(100, "bd", "df", "hj")}
	c.advance([]byte("c"))
	c.advance([]byte("d"))
	if c.next != 1 || c.inGap {
		t.Fatalf("key d at grandparent %d (in gap %v), want 1", c.next, c.inGap)
	}
	c.cut([]byte("d"))
	if c.overlap != 200 {
		t.Fatalf("overlap of an output starting at d = %d, want 200", c.overlap)
	}
}

// TestCompactionOutputsEndAtGrandparentBoundaries runs a real compaction
// of sparser keys into a level above dense tables: every output but the
// last must end where a grandparent does, so no grandparent overlaps two
// outputs. Cut at the target size alone, the outputs end inside
// grandparents.
func TestCompactionOutputsEndAtGrandparentBoundaries(t *testing.T) {
	o := testOptions()
	o.DisableAutoCompactions = true
	o.CompressionType = "none"
	o.TargetFileSizeBase = 64 << 10
	o.TargetFileSizeMultiplier = 1
	o.WriteBufferSize = 8 << 20
	db := mustOpen(t, t.TempDir(), o)
	defer db.Close()
	rng := rand.New(rand.NewSource(1))
	value := make([]byte, 100)
	write := func(skip int) {
		b := NewBatch()
		for i := 0; i < 12000; i++ {
			if skip > 0 && i%skip == 0 {
				continue
			}
			rng.Read(value)
			b.Put([]byte(fmt.Sprintf("k%06d", i)), value)
		}
		if err := db.Write(b, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := db.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	write(0)
	if err := db.Compact(nil, nil, 2); err != nil {
		t.Fatal(err)
	}
	// Four keys in five: an output of the target size would span 1.25
	// grandparents; crossing each boundary (two: out of one grandparent,
	// into the next) at 80% of the target cuts it there.
	write(5)
	db.mu.Lock()
	v := db.def.current
	if len(v.levels[2]) < 10 || len(v.levels[0]) != 1 {
		db.mu.Unlock()
		t.Fatalf("set-up: %d tables in L2, %d in L0", len(v.levels[2]), len(v.levels[0]))
	}
	c := db.newCompaction(db.def, 0, 1, v.levels[0])
	c.trivialMove = false
	c.markCompacting(true)
	err := db.runCompaction(c)
	v = db.def.current
	out, below := v.levels[1], v.levels[2]
	db.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 3 {
		t.Fatalf("%d outputs, want several", len(out))
	}
	for i := 0; i+1 < len(out); i++ {
		for _, g := range below {
			if compareKeys(g.smallest, out[i].largest) <= 0 && compareKeys(g.largest, out[i+1].smallest) >= 0 {
				t.Errorf("grandparent [%s, %s] overlaps outputs %d [.., %s] and %d [%s, ..]",
					g.smallest, g.largest, i, out[i].largest, i+1, out[i+1].smallest)
			}
		}
		if out[i].size > db.targetFileSize(1)+4096 {
			t.Errorf("output %d is %d bytes, over the target", i, out[i].size)
		}
	}
}
