package rangedel

import (
	"bytes"
	"errors"
	"slices"
	"testing"
)

// FuzzDecode decodes arbitrary bytes as a range-deletion block: an error
// wrapping ErrMalformed or a List that keeps the encoding's rules
// (non-empty, disjoint fragments in key order, each with descending
// sequences), encodes to bytes that decode to the same fragments, and
// answers queries without panicking.
func FuzzDecode(f *testing.F) {
	f.Add(Build([]Tombstone{{[]byte("a"), []byte("c"), 7}, {[]byte("b"), []byte("d"), 9}}).Encode(nil))
	f.Add([]byte{0})
	f.Add([]byte{1, 1, 'a', 1, 'b', 2, 9, 7})
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := Decode(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("Decode(% x): %v does not wrap ErrMalformed", b, err)
			}
			return
		}
		frags := l.Fragments()
		count := 0
		for i, fr := range frags {
			if bytes.Compare(fr.Start, fr.End) >= 0 || i > 0 && bytes.Compare(fr.Start, frags[i-1].End) < 0 || len(fr.Seqs) == 0 {
				t.Fatalf("Decode(% x): fragment %d [%q, %q) breaks the rules", b, i, fr.Start, fr.End)
			}
			for j := 1; j < len(fr.Seqs); j++ {
				if fr.Seqs[j] >= fr.Seqs[j-1] {
					t.Fatalf("Decode(% x): fragment %d's sequences %v are not descending", b, i, fr.Seqs)
				}
			}
			count += len(fr.Seqs)
			if got := l.Covering(fr.Start, ^uint64(0)); got != fr.Seqs[0] {
				t.Fatalf("Decode(% x): Covering(%q) = %d, want the fragment's newest %d", b, fr.Start, got, fr.Seqs[0])
			}
		}
		if l.Count() != count {
			t.Fatalf("Decode(% x): Count %d, fragments hold %d sequences", b, l.Count(), count)
		}
		again, err := Decode(l.Encode(nil))
		if err != nil {
			t.Fatalf("Decode(Encode(Decode(% x))): %v", b, err)
		}
		if !slices.EqualFunc(again.Fragments(), frags, func(x, y Fragment) bool {
			return bytes.Equal(x.Start, y.Start) && bytes.Equal(x.End, y.End) && slices.Equal(x.Seqs, y.Seqs)
		}) {
			t.Fatalf("Decode(% x) re-encoded decodes to other fragments", b)
		}
		c := Cursor{List: l}
		for _, fr := range frags {
			c.Covering(fr.End, 1)
		}
	})
}
