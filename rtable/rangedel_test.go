package rtable

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/internal/rangedel"
)

// randomTombstones returns n tombstones over keys "k%04d" with sequences
// from 1 to 1000.
func randomTombstones(rng *rand.Rand, n int) []rangedel.Tombstone {
	ts := make([]rangedel.Tombstone, n)
	for i := range ts {
		lo := rng.IntN(500)
		ts[i] = rangedel.Tombstone{
			Start: fmt.Appendf(nil, "k%04d", lo),
			End:   fmt.Appendf(nil, "k%04d", lo+1+rng.IntN(60)),
			Seq:   1 + rng.Uint64N(1000),
		}
	}
	return ts
}

// TestRangeDelsRoundTrip writes tables with entries and range tombstones
// and checks that the tombstones read back fragment for fragment, that
// the entries are untouched, and that the properties' key and sequence
// bounds cover the tombstones.
func TestRangeDelsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 20 {
		var es []entry
		for range rng.IntN(300) {
			es = append(es, entry{fmt.Appendf(nil, "k%04d", 100+rng.IntN(300)), 10 + rng.Uint64N(900), base.KindSet, []byte("v")})
		}
		es = sortEntries(es)
		ts := randomTombstones(rng, 1+rng.IntN(30))
		want := rangedel.Build(append([]rangedel.Tombstone(nil), ts...))
		r, err := openFile(t, buildWithDels(t, es, WriterOptions{BloomBitsPerKey: 10}, ts))
		if err != nil {
			t.Fatal(err)
		}
		if got := r.RangeDels(); !bytes.Equal(got.Encode(nil), want.Encode(nil)) {
			t.Fatalf("round %d: tombstones read back as %v, want %v", round, got.Fragments(), want.Fragments())
		}
		p := r.Properties()
		lo, hi := want.Bounds()
		sLo, sHi := want.SeqRange()
		if p.NumRangeDeletions != uint64(want.Count()) || bytes.Compare(p.SmallestKey, lo) > 0 || bytes.Compare(p.LargestKey, hi) < 0 ||
			p.SmallestSeq > sLo || p.LargestSeq < sHi {
			t.Fatalf("round %d: properties %d tombstones, keys [%q, %q], seqs %d..%d do not cover %d tombstones over [%q, %q) at %d..%d",
				round, p.NumRangeDeletions, p.SmallestKey, p.LargestKey, p.SmallestSeq, p.LargestSeq, want.Count(), lo, hi, sLo, sHi)
		}
		if len(es) == 0 && (!bytes.Equal(p.SmallestKey, lo) || !bytes.Equal(p.LargestKey, hi)) {
			t.Fatalf("round %d: a table of tombstones only has keys [%q, %q], want [%q, %q]", round, p.SmallestKey, p.LargestKey, lo, hi)
		}
		it := r.NewIter()
		i := 0
		for ok := it.First(); ok; ok = it.Next() {
			checkEntry(t, it, model(es), i)
			i++
		}
		if i != len(es) {
			t.Fatalf("round %d: read %d of %d entries", round, i, len(es))
		}
		it.Close()
		r.Close()
	}
}

// TestRangeDelsOnlyTable checks a table holding tombstones and no entry.
func TestRangeDelsOnlyTable(t *testing.T) {
	ts := []rangedel.Tombstone{{Start: []byte("b"), End: []byte("q"), Seq: 9}}
	r, err := openFile(t, buildWithDels(t, nil, WriterOptions{BloomBitsPerKey: 10}, ts))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := r.Properties()
	if p.NumEntries != 0 || p.NumRangeDeletions != 1 || string(p.SmallestKey) != "b" || string(p.LargestKey) != "q" || p.SmallestSeq != 9 || p.LargestSeq != 9 {
		t.Fatalf("properties %+v", p)
	}
	if r.RangeDels().Covering([]byte("c"), base.MaxSeq) != 9 {
		t.Fatal("the tombstone does not cover c")
	}
	if found, err := r.Get([]byte("c"), base.MaxSeq, func([]byte, base.Kind, uint64) {}); found || err != nil {
		t.Fatalf("Get in a table without entries: %v, %v", found, err)
	}
	if it := r.NewIter(); it.First() {
		t.Fatal("an iterator over no entries found one")
	}
}

// TestRangeDelsCountChecked changes the tombstone count the meta section
// records (resealing its checksums) and expects Open to refuse the table.
func TestRangeDelsCountChecked(t *testing.T) {
	g := goldenTables[len(goldenTables)-2]
	if g.file != "rangedel.hex" {
		t.Fatalf("golden table %s is not the range deletion example", g.file)
	}
	r := &Reader{data: g.bytes(t), name: "mem"}
	if err := r.init(true); err != nil {
		t.Fatal(err)
	}
	m := r.m
	m.rangeDels++
	b := append([]byte(nil), r.data[:m.sections[secRangeDels].offset+m.sections[secRangeDels].length]...)
	mb := m.encode(nil, FormatVersion)
	f := footer{metaOffset: uint64(len(b)), metaLen: uint32(len(mb)), metaCRC: checksum(mb), version: FormatVersion}
	b = f.encode(append(b, mb...))
	if err := readBytes(b); err == nil {
		t.Fatal("a wrong tombstone count went unnoticed")
	}
}
