package rtable

import (
	"fmt"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// TestPrefixFilter writes tables whose filters hold 4-byte prefixes, with
// and without whole keys, over packed keys (all of one length) and
// variable ones, and checks that no present key or prefix is ruled out,
// that most absent prefixes are, that a prefix of another length is not
// probed, and that Get of a present key finds it.
func TestPrefixFilter(t *testing.T) {
	for _, keys := range []string{"packed", "variable"} {
		for _, prefixOnly := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/prefixOnly=%v", keys, prefixOnly), func(t *testing.T) {
				var es []entry
				for p := 0; p < 400; p += 2 {
					for j := range 5 {
						k := fmt.Appendf(nil, "%03d:%02d", p, j)
						if keys == "variable" {
							k = fmt.Appendf(nil, "%03d:%d", p, j*j)
						}
						es = append(es, entry{k, 0, base.KindSet, []byte("v")})
					}
				}
				if keys == "variable" {
					// Outside the prefix domain.
					es = append(es, entry{[]byte("zz"), 0, base.KindSet, []byte("short")})
				}
				es = sortEntries(es)
				r, p := writeTable(t, es, WriterOptions{BloomBitsPerKey: 10, FilterPrefixLen: 4, PrefixOnlyFilter: prefixOnly})
				if p.FilterPrefixLen != 4 || p.PrefixOnlyFilter != prefixOnly || p.PackedKeys != (keys == "packed") {
					t.Fatalf("properties: prefix %d, prefix only %v, packed %v", p.FilterPrefixLen, p.PrefixOnlyFilter, p.PackedKeys)
				}
				fn := func([]byte, base.Kind, uint64) {}
				for _, e := range es {
					if found, err := r.Get(e.key, base.MaxSeq, fn); !found || err != nil {
						t.Fatalf("Get(%q) = %v, %v", e.key, found, err)
					}
					if !r.MayContain(e.key) {
						t.Fatalf("MayContain(%q) is false", e.key)
					}
				}
				ruledOut := 0
				for q := range 400 {
					may, probed := r.MayContainPrefix(fmt.Appendf(nil, "%03d:", q))
					if !probed {
						t.Fatalf("prefix %03d: not probed", q)
					}
					if q%2 == 0 && !may {
						t.Fatalf("present prefix %03d ruled out", q)
					}
					if q%2 == 1 && !may {
						ruledOut++
					}
				}
				if ruledOut < 180 {
					t.Errorf("%d of 200 absent prefixes ruled out", ruledOut)
				}
				if may, probed := r.MayContainPrefix([]byte("001")); !may || probed {
					t.Errorf("a 3-byte prefix: may %v, probed %v; want true, false", may, probed)
				}
				missed := 0
				for q := 1; q < 400; q += 2 {
					if found, _ := r.Get(fmt.Appendf(nil, "%03d:00", q), base.MaxSeq, fn); found {
						t.Fatalf("Get of an absent key found it")
					}
					if r.MayContain(fmt.Appendf(nil, "%03d:00", q)) {
						missed++
					}
				}
				if missed > 20 {
					t.Errorf("MayContain admitted %d of 200 keys under absent prefixes", missed)
				}
			})
		}
	}
}

// TestPrefixOnlyFilterOfShortKeys checks a prefix-only table none of whose
// keys is long enough for a prefix: it has no filter, and every key is
// found.
func TestPrefixOnlyFilterOfShortKeys(t *testing.T) {
	es := []entry{{[]byte("a"), 0, base.KindSet, []byte("1")}, {[]byte("b"), 0, base.KindSet, []byte("2")}}
	r, p := writeTable(t, es, WriterOptions{BloomBitsPerKey: 10, FilterPrefixLen: 4, PrefixOnlyFilter: true})
	if p.FilterBytes != 0 || p.FilterPrefixLen != 0 {
		t.Fatalf("filter of %d bytes, prefix %d", p.FilterBytes, p.FilterPrefixLen)
	}
	for _, e := range es {
		if found, err := r.Get(e.key, base.MaxSeq, func([]byte, base.Kind, uint64) {}); !found || err != nil {
			t.Fatalf("Get(%q) = %v, %v", e.key, found, err)
		}
	}
}
