// Package memtabletest is the conformance suite every memtable.Rep
// implementation runs from its own tests:
//
//	func TestConformance(t *testing.T) {
//		memtabletest.RunRep(t, func() memtable.Rep { return mypkg.New(...) })
//		memtabletest.RunFull(t, func() memtable.Rep { return mypkg.New(smallCap) })
//	}
//
// RunRep compares a Rep against a sorted in-memory model: point lookups at
// many snapshots, forward and backward iteration, Seek and SeekForPrev at
// random targets, many versions of one user key, bytes that must stay valid
// after later inserts, and concurrent writers racing with readers (run the
// package tests with -race). RunFull fills a small-capacity Rep until Add
// returns memtable.ErrFull and checks that everything accepted before is
// intact. The suite never measures time.
package memtabletest

import (
	"bytes"
	"sort"

	"github.com/godbbench/godbbench/internal/base"
)

// entry is one internal key with its payload, as the model stores it.
type entry struct {
	key   []byte
	seq   uint64
	kind  base.Kind
	value []byte
}

// compareInternal orders by user key ascending, then sequence descending:
// base.Compare on trailers of one kind, so that equal sequences compare
// equal whatever their kinds.
func compareInternal(aKey []byte, aSeq uint64, bKey []byte, bSeq uint64) int {
	return base.Compare(aKey, base.MakeTrailer(aSeq, base.KindDelete), bKey, base.MakeTrailer(bSeq, base.KindDelete))
}

// model is a sorted slice of entries: the reference every Rep is checked against.
type model struct {
	entries []entry
}

func (m *model) add(e entry) {
	m.entries = append(m.entries, e)
}

func (m *model) sort() {
	sort.Slice(m.entries, func(i, j int) bool {
		a, b := &m.entries[i], &m.entries[j]
		return compareInternal(a.key, a.seq, b.key, b.seq) < 0
	})
}

// get returns the newest entry of key with seq <= snapshot (model must be sorted).
func (m *model) get(key []byte, snapshot uint64) (entry, bool) {
	i := m.seek(key, snapshot)
	if i < len(m.entries) && bytes.Equal(m.entries[i].key, key) {
		return m.entries[i], true
	}
	return entry{}, false
}

// seek returns the index of the first entry >= (key, seq).
func (m *model) seek(key []byte, seq uint64) int {
	return sort.Search(len(m.entries), func(i int) bool {
		e := &m.entries[i]
		return compareInternal(e.key, e.seq, key, seq) >= 0
	})
}

// seekForPrev returns the index of the last entry <= (key, seq), or -1.
func (m *model) seekForPrev(key []byte, seq uint64) int {
	i := sort.Search(len(m.entries), func(i int) bool {
		e := &m.entries[i]
		return compareInternal(e.key, e.seq, key, seq) > 0
	})
	return i - 1
}
