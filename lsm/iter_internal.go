package lsm

import (
	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/sst"
)

// internalIter walks entries (user key, sequence, kind, value) in internal
// order: user key ascending, then sequence descending. SeekGE positions at
// the newest entry of the first user key >= key; SeekLT at the oldest entry
// of the last user key < key. Next is only called after First or SeekGE
// (forward mode) and Prev only after Last or SeekLT (reverse mode): the DB
// iterator re-seeks to change direction, which keeps the merging iterator
// simple.
type internalIter interface {
	First() bool
	Last() bool
	SeekGE(key []byte) bool
	SeekLT(key []byte) bool
	Next() bool
	Prev() bool
	Key() []byte
	Seq() uint64
	Kind() base.Kind
	// Value loads the value of the current entry (lazily for tables).
	Value() ([]byte, error)
	Error() error
	Close() error
}

// memIter adapts a memtable.Iter.
type memIter struct {
	it memtable.Iter
	// closer is it as a memtable.Closer, or nil: checked once, when the
	// iterator is made (setIter), and used by Close.
	closer memtable.Closer
	valid  bool
	bloom  *memBloom // the memtable's bloom filter, for prefix seeks
}

func newMemIter(rep memtable.Rep) *memIter {
	m := &memIter{}
	m.setIter(rep.NewIter())
	return m
}

// setIter makes it the iterator m adapts.
func (m *memIter) setIter(it memtable.Iter) {
	m.it = it
	m.closer, _ = it.(memtable.Closer)
}

func (m *memIter) First() bool { m.valid = m.it.First(); return m.valid }
func (m *memIter) Last() bool  { m.valid = m.it.Last(); return m.valid }
func (m *memIter) SeekGE(key []byte) bool {
	m.valid = m.it.Seek(key, base.MaxSeq)
	return m.valid
}

func (m *memIter) SeekLT(key []byte) bool {
	// The last entry <= (key, MaxSeq) is before every real entry of key,
	// since sequences are below MaxSeq; step back if it is key itself.
	m.valid = m.it.SeekForPrev(key, base.MaxSeq)
	if m.valid && compareKeys(m.it.Key(), key) >= 0 {
		m.valid = m.it.Prev()
	}
	return m.valid
}
func (m *memIter) Next() bool             { m.valid = m.it.Next(); return m.valid }
func (m *memIter) Prev() bool             { m.valid = m.it.Prev(); return m.valid }
func (m *memIter) Key() []byte            { return m.it.Key() }
func (m *memIter) Seq() uint64            { return m.it.Seq() }
func (m *memIter) Kind() base.Kind        { return m.it.Kind() }
func (m *memIter) Value() ([]byte, error) { return m.it.Value(), nil }
func (m *memIter) Error() error           { return nil }
func (m *memIter) Close() error {
	if m.closer != nil {
		m.closer.Close()
	}
	return nil
}

// tableIter adapts an sst.Iter. (An rtable.Iter is an internalIter as it
// is.)
type tableIter struct {
	it    *sst.Iter
	blobs blobResolver
	// own is the sst.Iter this adapter reuses, table after table (a level
	// walk's) and iterator after iterator (a pooled bundle's slots).
	own *sst.Iter
}

func (t *tableIter) First() bool            { return t.it.First() }
func (t *tableIter) Last() bool             { return t.it.Last() }
func (t *tableIter) SeekGE(key []byte) bool { return t.it.SeekGE(key) }
func (t *tableIter) SeekLT(key []byte) bool { return t.it.SeekLT(key) }
func (t *tableIter) Next() bool             { return t.it.Next() }
func (t *tableIter) Prev() bool             { return t.it.Prev() }
func (t *tableIter) Key() []byte            { return t.it.Key() }
func (t *tableIter) Seq() uint64            { return t.it.Seq() }
func (t *tableIter) Kind() base.Kind        { return t.blobs.kind(base.Kind(t.it.Kind())) }
func (t *tableIter) Value() ([]byte, error) { return t.blobs.value(t.it) }
func (t *tableIter) Error() error           { return t.it.Error() }
func (t *tableIter) Close() error           { t.it.Close(); return nil }
