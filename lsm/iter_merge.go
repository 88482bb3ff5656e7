package lsm

import (
	"bytes"

	"github.com/godbbench/godbbench/internal/base"
)

// mergingIter merges children into one internal-order stream with a binary
// heap: a min-heap in forward mode, a max-heap in reverse mode.
//
// Errors stop the merge (RocksDB's MergingIterator contract): when any child
// reports an error while being positioned or moved, or while loading a
// value, the merge becomes invalid at once and Error returns the first such
// error. Dropping the failed child and going on would return older versions
// and deleted keys that the child's newer entries hide. Next and Prev after
// an error return false; First, Last, SeekGE and SeekLT clear the error and
// position every child afresh, and meet the same error again if it persists.
//
// Each heap slot caches its child's current key and sequence, refreshed once
// per child move, so a heap comparison is one bytes.Compare on two slices
// with no interface calls. Before the cache a comparison made four
// interface calls (Key and Seq on both sides, about 2 ns each plus lost
// inlining); a forward step over 1 memtable + 4 L0 tables + 3 levels costs
// about 3-4 comparisons, so the cache saves ~30 ns of a ~100-300 ns step.
//
// Most steps of a scan over data with locality leave the same child on top
// (one source holds a run of consecutive keys); with the cached order of
// the root's two children (rootChild) such a step costs one comparison.
type mergingIter struct {
	children []internalIter
	heap     []mergeEntry // valid children
	reverse  bool
	err      error
	// rootChild caches which of heap[1] and heap[2] comes first (1 or 2;
	// 0: unknown). Neither moves while the top child keeps winning, so a
	// step that leaves the top in place costs one comparison instead of
	// two. Any change below the root resets it.
	rootChild int
	// prefix, when set, makes SeekGE leave out the children that cannot
	// hold a key with this prefix (iter_prefix.go).
	prefix []byte
}

// mergeEntry is a heap slot: a valid child and its cached position.
//
// pfx is the key's first 8 bytes (base.KeyPrefix), so that most
// comparisons of two slots are one integer comparison and not a call of
// bytes.Compare: prefixes order keys as the keys do wherever they differ,
// and only equal prefixes compare the keys. On the default db_bench
// sequence at --num=1000000 (memtable + 4 L0 tables + L1) the heap's
// bytes.Compare calls were 8% of readseq's CPU. load refreshes pfx with
// key; the solo steps (iter_solo.go, iter_scan.go), which run while the
// heap holds one slot, set key alone: no comparison happens before the
// next positioning loads every slot again.
type mergeEntry struct {
	it  internalIter
	key []byte
	pfx uint64
	seq uint64
}

// load refreshes the cached key and sequence after the child moved.
func (e *mergeEntry) load() {
	e.key = e.it.Key()
	e.seq = e.it.Seq()
	e.pfx = base.KeyPrefix(e.key)
}

func newMergingIter(children []internalIter) *mergingIter {
	return &mergingIter{children: children, heap: make([]mergeEntry, 0, len(children))}
}

// less orders a before b in the current direction.
func (m *mergingIter) less(a, b *mergeEntry) bool {
	if a.pfx != b.pfx {
		return (a.pfx < b.pfx) != m.reverse
	}
	c := bytes.Compare(a.key, b.key)
	if c == 0 {
		// Newer (higher sequence) first in forward order.
		if m.reverse {
			return a.seq < b.seq
		}
		return a.seq > b.seq
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
		if r := l + 1; r < n && m.less(&h[r], &h[l]) {
			j = r
		}
		if !m.less(&h[j], &h[i]) {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}

// seekMode names how init positions each child.
type seekMode uint8

const (
	seekFirst seekMode = iota
	seekLast
	seekGE
	seekLT
)

// positionBy positions it by mode (with key for the seeks).
func positionBy(it internalIter, mode seekMode, key []byte) bool {
	switch mode {
	case seekFirst:
		return it.First()
	case seekLast:
		return it.Last()
	case seekGE:
		return it.SeekGE(key)
	}
	return it.SeekLT(key)
}

// init positions every child (no closure, so a seek allocates nothing) and
// builds the heap.
func (m *mergingIter) init(mode seekMode, key []byte) bool {
	m.reverse = mode == seekLast || mode == seekLT
	m.heap = m.heap[:0]
	m.err = nil
	// The prefix filter speaks only for keys with the prefix: a re-seek
	// of a direction change (Next after Prev) may be at a key of another
	// prefix, below an auto-prefix seek's.
	prefixed := mode == seekGE && m.prefix != nil && bytes.HasPrefix(key, m.prefix)
	for _, c := range m.children {
		var ok bool
		if prefixed {
			ok = seekGEPrefixed(c, key, m.prefix)
		} else {
			ok = positionBy(c, mode, key)
		}
		if ok {
			m.heap = append(m.heap, mergeEntry{it: c})
			m.heap[len(m.heap)-1].load()
		} else if err := c.Error(); err != nil {
			return m.fail(err)
		}
	}
	for i := len(m.heap)/2 - 1; i >= 0; i-- {
		m.down(i)
	}
	m.rootChild = 0
	return len(m.heap) > 0
}

// fixTop restores the heap after the top child moved forward in its
// direction (so it can only sink).
func (m *mergingIter) fixTop() {
	h := m.heap
	n := len(h)
	if n < 2 {
		return
	}
	j := 1
	if n > 2 {
		if m.rootChild == 0 {
			m.rootChild = 1
			if m.less(&h[2], &h[1]) {
				m.rootChild = 2
			}
		}
		j = m.rootChild
	}
	if !m.less(&h[j], &h[0]) {
		return
	}
	h[0], h[j] = h[j], h[0]
	m.rootChild = 0
	m.down(j)
}

func (m *mergingIter) First() bool            { return m.init(seekFirst, nil) }
func (m *mergingIter) Last() bool             { return m.init(seekLast, nil) }
func (m *mergingIter) SeekGE(key []byte) bool { return m.init(seekGE, key) }
func (m *mergingIter) SeekLT(key []byte) bool { return m.init(seekLT, key) }

// step moves the top child (forward or backward) and restores the heap.
func (m *mergingIter) step(forward bool) bool {
	if len(m.heap) == 0 {
		return false
	}
	top := &m.heap[0]
	var ok bool
	if forward {
		ok = top.it.Next()
	} else {
		ok = top.it.Prev()
	}
	if ok {
		top.load()
		m.fixTop()
		return true
	}
	if err := top.it.Error(); err != nil {
		return m.fail(err)
	}
	last := len(m.heap) - 1
	m.heap[0] = m.heap[last]
	m.heap[last] = mergeEntry{}
	m.heap = m.heap[:last]
	m.rootChild = 0
	if last > 0 {
		m.down(0)
	}
	return last > 0
}

func (m *mergingIter) Next() bool { return m.step(true) }
func (m *mergingIter) Prev() bool { return m.step(false) }

func (m *mergingIter) Valid() bool     { return len(m.heap) > 0 }
func (m *mergingIter) Key() []byte     { return m.heap[0].key }
func (m *mergingIter) Seq() uint64     { return m.heap[0].seq }
func (m *mergingIter) Kind() base.Kind { return m.heap[0].it.Kind() }
func (m *mergingIter) Error() error    { return m.err }

// Value loads the current entry's value; an error makes the merge invalid.
func (m *mergingIter) Value() ([]byte, error) {
	v, err := m.heap[0].it.Value()
	if err != nil {
		m.fail(err)
	}
	return v, err
}

// fail records err (the first one since the last positioning) and empties
// the heap, so that the merge is invalid and no later entry is returned.
func (m *mergingIter) fail(err error) bool {
	if m.err == nil {
		m.err = err
	}
	clear(m.heap)
	m.heap = m.heap[:0]
	m.rootChild = 0
	return false
}

func (m *mergingIter) Close() error {
	for _, c := range m.children {
		if err := c.Close(); err != nil && m.err == nil {
			m.err = err
		}
	}
	return m.err
}
