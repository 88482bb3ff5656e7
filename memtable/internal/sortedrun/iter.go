package sortedrun

import "github.com/godbbench/godbbench/internal/base"

// Iter is a memtable.Iter over a Run.
type Iter struct {
	run Run
	pos int // len(run) or -1 when not valid
}

// NewIter returns an unpositioned iterator over r.
func NewIter(r Run) *Iter { return &Iter{run: r, pos: -1} }

func (it *Iter) at(i int) bool {
	if i < 0 || i >= len(it.run) {
		it.pos = -1
		return false
	}
	it.pos = i
	return true
}

// First positions at the first entry.
func (it *Iter) First() bool { return it.at(0) }

// Last positions at the last entry.
func (it *Iter) Last() bool { return it.at(len(it.run) - 1) }

// Seek positions at the first entry >= (key, seq).
func (it *Iter) Seek(key []byte, seq uint64) bool {
	return it.at(it.run.Search(key, base.SeekTrailer(seq)))
}

// SeekForPrev positions at the last entry <= (key, seq): the one before the
// first entry that sorts after it.
func (it *Iter) SeekForPrev(key []byte, seq uint64) bool {
	t := base.SeekForPrevTrailer(seq)
	i := it.run.Search(key, t)
	if i < len(it.run) && base.Compare(it.run[i].Key, it.run[i].Trailer, key, t) == 0 {
		return it.at(i)
	}
	return it.at(i - 1)
}

// Next moves to the next entry.
func (it *Iter) Next() bool {
	if it.pos < 0 {
		return false
	}
	return it.at(it.pos + 1)
}

// Prev moves to the previous entry.
func (it *Iter) Prev() bool {
	if it.pos < 0 {
		return false
	}
	return it.at(it.pos - 1)
}

// Valid reports whether the iterator stands at an entry.
func (it *Iter) Valid() bool { return it.pos >= 0 }

// Key is the current entry's user key.
func (it *Iter) Key() []byte { return it.run[it.pos].Key }

// Seq is the current entry's sequence number.
func (it *Iter) Seq() uint64 { return it.run[it.pos].Trailer.Seq() }

// Kind is the current entry's kind.
func (it *Iter) Kind() base.Kind { return it.run[it.pos].Trailer.Kind() }

// Value is the current entry's value.
func (it *Iter) Value() []byte { return it.run[it.pos].Value }
