package lsm

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// sliceIter is an internalIter over entries already in internal order.
type sliceIter struct {
	keys []string
	seqs []uint64
	pos  int
}

func (s *sliceIter) valid() bool { return s.pos >= 0 && s.pos < len(s.keys) }
func (s *sliceIter) First() bool { s.pos = 0; return s.valid() }
func (s *sliceIter) Last() bool  { s.pos = len(s.keys) - 1; return s.valid() }
func (s *sliceIter) SeekGE(key []byte) bool {
	s.pos = sort.SearchStrings(s.keys, string(key))
	return s.valid()
}
func (s *sliceIter) SeekLT(key []byte) bool {
	s.pos = sort.SearchStrings(s.keys, string(key)) - 1
	return s.valid()
}
func (s *sliceIter) Next() bool             { s.pos++; return s.valid() }
func (s *sliceIter) Prev() bool             { s.pos--; return s.valid() }
func (s *sliceIter) Key() []byte            { return []byte(s.keys[s.pos]) }
func (s *sliceIter) Seq() uint64            { return s.seqs[s.pos] }
func (s *sliceIter) Kind() base.Kind        { return base.KindSet }
func (s *sliceIter) Value() ([]byte, error) { return nil, nil }
func (s *sliceIter) Error() error           { return nil }
func (s *sliceIter) Close() error           { return nil }

// TestMergingIterOrder merges random disjoint-key children (runs of
// consecutive keys, so the cached root order is exercised) and checks both
// directions and seeks against a sorted model.
func TestMergingIterOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for round := range 50 {
		nChildren := 1 + rng.Intn(9)
		perChild := make([][]string, nChildren)
		var all []string
		for i := range 2000 {
			c := rng.Intn(nChildren)
			if i%50 != 0 && rng.Intn(4) != 0 && i > 0 {
				c = (i / 7) % nChildren // runs from one child
			}
			k := fmt.Sprintf("k%06d", i)
			perChild[c] = append(perChild[c], k)
			all = append(all, k)
		}
		children := make([]internalIter, nChildren)
		for i, keys := range perChild {
			seqs := make([]uint64, len(keys))
			children[i] = &sliceIter{keys: keys, seqs: seqs}
		}
		m := newMergingIter(children)
		var got []string
		for ok := m.First(); ok; ok = m.Next() {
			got = append(got, string(m.Key()))
		}
		if fmt.Sprint(got) != fmt.Sprint(all) {
			t.Fatalf("round %d: forward merge of %d children is out of order", round, nChildren)
		}
		got = got[:0]
		for ok := m.Last(); ok; ok = m.Prev() {
			got = append(got, string(m.Key()))
		}
		for i, j := 0, len(got)-1; i < j; i, j = i+1, j-1 {
			got[i], got[j] = got[j], got[i]
		}
		if fmt.Sprint(got) != fmt.Sprint(all) {
			t.Fatalf("round %d: reverse merge of %d children is out of order", round, nChildren)
		}
		for range 20 {
			i := rng.Intn(len(all))
			ok := m.SeekGE([]byte(all[i]))
			for j := i; j < i+30 && j < len(all); j++ {
				if !ok || string(m.Key()) != all[j] {
					t.Fatalf("round %d: after SeekGE(%s) step %d at %q, want %s", round, all[i], j-i, m.Key(), all[j])
				}
				ok = m.Next()
			}
		}
	}
}
