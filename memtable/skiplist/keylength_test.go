package skiplist

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// TestKeysAroundLengthBoundaries checks keys shorter than, as long as and
// longer than the 8 bytes searches compare as one integer, and keys and
// values around 128 bytes, where their varint lengths take a second byte;
// keys of one length share all but their last byte, and some values are
// empty: order, iteration both ways, point lookups and the stored bytes.
func TestKeysAroundLengthBoundaries(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	type entry struct {
		key   []byte
		seq   uint64
		value []byte
	}
	stem := bytes.Repeat([]byte("p"), 140)
	var es []entry
	seq := uint64(0)
	for _, n := range []int{0, 1, 2, 6, 7, 8, 9, 10, 15, 16, 17, 126, 127, 128, 129, 130} {
		for variant := 0; variant < 3; variant++ {
			key := slices.Clone(stem[:n])
			if n > 0 {
				key[n-1] = byte('a' + variant) // same first n-1 bytes
			}
			for v := 0; v < 1+variant%2; v++ {
				seq++
				value := fmt.Appendf(nil, "value of %q at %d", key, seq)
				switch rng.IntN(4) {
				case 0:
					value = nil
				case 1:
					value = bytes.Repeat(value, 10)[:126+rng.IntN(5)]
				}
				es = append(es, entry{key, seq, value})
			}
		}
	}
	l := New()
	for _, i := range rng.Perm(len(es)) {
		e := es[i]
		if err := l.Add(e.seq, base.KindSet, e.key, e.value); err != nil {
			t.Fatal(err)
		}
	}
	slices.SortFunc(es, func(a, b entry) int {
		if c := bytes.Compare(a.key, b.key); c != 0 {
			return c
		}
		return -cmpUint(a.seq, b.seq)
	})
	it := l.NewIter()
	i := 0
	for ok := it.First(); ok; ok = it.Next() {
		e := es[i]
		if !bytes.Equal(it.Key(), e.key) || it.Seq() != e.seq || !bytes.Equal(it.Value(), e.value) {
			t.Fatalf("entry %d: (%q, %d, %q), want (%q, %d, %q)", i, it.Key(), it.Seq(), it.Value(), e.key, e.seq, e.value)
		}
		i++
	}
	if i != len(es) {
		t.Fatalf("forward scan saw %d of %d entries", i, len(es))
	}
	for ok := it.Last(); ok; ok = it.Prev() {
		i--
		if !bytes.Equal(it.Key(), es[i].key) || it.Seq() != es[i].seq {
			t.Fatalf("backward entry %d: (%q, %d), want (%q, %d)", i, it.Key(), it.Seq(), es[i].key, es[i].seq)
		}
	}
	if i != 0 {
		t.Fatalf("backward scan stopped at %d", i)
	}
	for j, e := range es {
		if j > 0 && bytes.Equal(es[j-1].key, e.key) {
			continue // an older version; Get returns the newest
		}
		v, _, ok := l.Get(e.key, base.MaxSeq)
		if !ok || !bytes.Equal(v, e.value) {
			t.Fatalf("Get(%q) = %q, %v; want %q", e.key, v, ok, e.value)
		}
	}
	if _, _, ok := l.Get(append(slices.Clone(stem[:20]), 'z'), base.MaxSeq); ok {
		t.Fatal("Get found a key never added")
	}
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
