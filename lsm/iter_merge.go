package lsm

import (
	"bytes"

	"github.com/godbbench/godbbench/memtable"
)

// mergingIter merges children into one internal-order stream with a binary
// heap: a min-heap in forward mode, a max-heap in reverse mode. Each step
// costs one child step plus O(log n) comparisons; with the typical 1 memtable
// + 4 L0 tables + 6 levels that is about 3-4 key comparisons.
type mergingIter struct {
	children []internalIter
	heap     []internalIter // valid children
	reverse  bool
	err      error
}

func newMergingIter(children []internalIter) *mergingIter {
	return &mergingIter{children: children, heap: make([]internalIter, 0, len(children))}
}

// less orders a before b in the current direction.
func (m *mergingIter) less(a, b internalIter) bool {
	c := bytes.Compare(a.Key(), b.Key())
	if c == 0 {
		// Newer (higher sequence) first in forward order.
		if m.reverse {
			return a.Seq() < b.Seq()
		}
		return a.Seq() > b.Seq()
	}
	if m.reverse {
		return c > 0
	}
	return c < 0
}

func (m *mergingIter) down(i int) {
	h := m.heap
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		j := l
		if r := l + 1; r < n && m.less(h[r], h[l]) {
			j = r
		}
		if !m.less(h[j], h[i]) {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}

func (m *mergingIter) init(reverse bool, position func(internalIter) bool) bool {
	m.reverse = reverse
	m.heap = m.heap[:0]
	for _, c := range m.children {
		if position(c) {
			m.heap = append(m.heap, c)
		} else if err := c.Error(); err != nil && m.err == nil {
			m.err = err
		}
	}
	for i := len(m.heap)/2 - 1; i >= 0; i-- {
		m.down(i)
	}
	return len(m.heap) > 0
}

func (m *mergingIter) First() bool { return m.init(false, internalIter.First) }
func (m *mergingIter) Last() bool  { return m.init(true, internalIter.Last) }
func (m *mergingIter) SeekGE(key []byte) bool {
	return m.init(false, func(c internalIter) bool { return c.SeekGE(key) })
}
func (m *mergingIter) SeekLT(key []byte) bool {
	return m.init(true, func(c internalIter) bool { return c.SeekLT(key) })
}

func (m *mergingIter) step(move func(internalIter) bool) bool {
	if len(m.heap) == 0 {
		return false
	}
	top := m.heap[0]
	if move(top) {
		m.down(0)
	} else {
		if err := top.Error(); err != nil && m.err == nil {
			m.err = err
		}
		last := len(m.heap) - 1
		m.heap[0] = m.heap[last]
		m.heap = m.heap[:last]
		if last > 0 {
			m.down(0)
		}
	}
	return len(m.heap) > 0
}

func (m *mergingIter) Next() bool { return m.step(internalIter.Next) }
func (m *mergingIter) Prev() bool { return m.step(internalIter.Prev) }

func (m *mergingIter) Valid() bool            { return len(m.heap) > 0 }
func (m *mergingIter) Key() []byte            { return m.heap[0].Key() }
func (m *mergingIter) Seq() uint64            { return m.heap[0].Seq() }
func (m *mergingIter) Kind() memtable.Kind    { return m.heap[0].Kind() }
func (m *mergingIter) Value() ([]byte, error) { return m.heap[0].Value() }
func (m *mergingIter) Error() error           { return m.err }

func (m *mergingIter) Close() error {
	for _, c := range m.children {
		if err := c.Close(); err != nil && m.err == nil {
			m.err = err
		}
	}
	return m.err
}
