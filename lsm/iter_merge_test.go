package lsm

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strings"
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

// TestMergingIterKeyPrefixes merges children of short random keys over a
// tiny alphabet (zero bytes included, lengths 0 to 11, so that keys differ
// inside, at the end of and past their 8-byte prefixes, and one key is
// often a prefix of another) with several versions of a key across
// children, and checks both directions against a sorted model: the cached
// prefixes must order slots exactly as bytes.Compare and sequences do.
func TestMergingIterKeyPrefixes(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	alphabet := []byte{0, 1, 'a', 0xff}
	type version struct {
		key string
		seq uint64
	}
	for round := range 100 {
		nChildren := 1 + rng.Intn(6)
		seen := map[version]bool{}
		var all []version
		perChild := make([][]version, nChildren)
		for range 300 {
			k := make([]byte, rng.Intn(12))
			for i := range k {
				k[i] = alphabet[rng.Intn(len(alphabet))]
			}
			v := version{string(k), uint64(1 + rng.Intn(5))}
			if seen[v] {
				continue
			}
			seen[v] = true
			all = append(all, v)
			c := rng.Intn(nChildren)
			perChild[c] = append(perChild[c], v)
		}
		internalOrder := func(a, b version) int {
			if c := strings.Compare(a.key, b.key); c != 0 {
				return c
			}
			return cmp.Compare(b.seq, a.seq)
		}
		slices.SortFunc(all, internalOrder)
		children := make([]internalIter, nChildren)
		for i, vs := range perChild {
			slices.SortFunc(vs, internalOrder)
			s := &sliceIter{}
			for _, v := range vs {
				s.keys = append(s.keys, v.key)
				s.seqs = append(s.seqs, v.seq)
			}
			children[i] = s
		}
		m := newMergingIter(children)
		var got []version
		for ok := m.First(); ok; ok = m.Next() {
			got = append(got, version{string(m.Key()), m.Seq()})
		}
		if !slices.Equal(got, all) {
			t.Fatalf("round %d: forward merge of %d children:\n got %v\nwant %v", round, nChildren, got, all)
		}
		got = got[:0]
		for ok := m.Last(); ok; ok = m.Prev() {
			got = append(got, version{string(m.Key()), m.Seq()})
		}
		slices.Reverse(got)
		if !slices.Equal(got, all) {
			t.Fatalf("round %d: reverse merge of %d children:\n got %v\nwant %v", round, nChildren, got, all)
		}
	}
}

// BenchmarkMergingIterNext steps a merge of six children (a memtable, four
// L0 tables and a level, as the default db_bench sequence leaves them)
// whose 16-byte keys are spread at random, so the top child changes on
// most steps.
func BenchmarkMergingIterNext(b *testing.B) {
	rng := rand.New(rand.NewSource(4))
	const nChildren, n = 6, 1 << 16
	keys := make([]string, n)
	for i := range keys {
		// db_bench's keys: the number big endian, then filler.
		keys[i] = string(binary.BigEndian.AppendUint64(nil, uint64(i))) + "01234567"
	}
	perChild := make([][]string, nChildren)
	for _, k := range keys {
		c := rng.Intn(nChildren)
		perChild[c] = append(perChild[c], k)
	}
	children := make([]internalIter, nChildren)
	for i, ks := range perChild {
		c := &bytesIter{sliceIter: sliceIter{keys: ks, seqs: make([]uint64, len(ks))}}
		for _, k := range ks {
			c.bkeys = append(c.bkeys, []byte(k))
		}
		children[i] = c
	}
	m := newMergingIter(children)
	ok := m.First()
	defer startThreadCPU(b)()
	for range b.N {
		if !ok && !m.First() {
			b.Fatal("the merge is empty")
		}
		ok = m.Next()
	}
}

// bytesIter is a sliceIter whose Key does not allocate.
type bytesIter struct {
	sliceIter
	bkeys [][]byte
}

func (s *bytesIter) Key() []byte { return s.bkeys[s.pos] }
