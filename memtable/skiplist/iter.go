package skiplist

import (
	"github.com/godbbench/godbbench/memtable"

	"github.com/godbbench/godbbench/internal/base"
)

// NewIter implements memtable.Rep.
func (l *List) NewIter() memtable.Iter { return &Iter{list: l} }

// Iter walks a List; it is not safe for concurrent use by itself.
type Iter struct {
	list *List
	n    *node
}

func (it *Iter) set(n *node) bool { it.n = n; return n != nil }

// First implements memtable.Iter.
func (it *Iter) First() bool { return it.set(it.list.head.next[0].Load()) }

// Last implements memtable.Iter.
func (it *Iter) Last() bool { return it.set(it.list.findLast(&lookup{}, false, true)) }

// Seek implements memtable.Iter.
func (it *Iter) Seek(key []byte, seq uint64) bool {
	t := newLookup(key, base.SeekTrailer(seq))
	return it.set(it.list.findGreaterOrEqual(&t))
}

// SeekForPrev implements memtable.Iter.
func (it *Iter) SeekForPrev(key []byte, seq uint64) bool {
	t := newLookup(key, base.SeekForPrevTrailer(seq))
	return it.set(it.list.findLast(&t, true, false))
}

// Next implements memtable.Iter.
func (it *Iter) Next() bool {
	if it.n == nil {
		return false
	}
	return it.set(it.n.next[0].Load())
}

// Prev implements memtable.Iter: a search for the last node before this one.
func (it *Iter) Prev() bool {
	if it.n == nil {
		return false
	}
	t := lookup{key: it.n.key(), prefix: it.n.prefix(), trailer: it.n.trailer}
	return it.set(it.list.findLast(&t, false, false))
}

// Valid implements memtable.Iter.
func (it *Iter) Valid() bool { return it.n != nil }

// Key implements memtable.Iter.
func (it *Iter) Key() []byte { return it.n.key() }

// Seq implements memtable.Iter.
func (it *Iter) Seq() uint64 { return it.n.trailer.Seq() }

// Kind implements memtable.Iter.
func (it *Iter) Kind() base.Kind { return it.n.trailer.Kind() }

// Value implements memtable.Iter.
func (it *Iter) Value() []byte { return it.n.value() }
