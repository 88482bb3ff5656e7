package lsm

import (
	"sync"
	"sync/atomic"

	"github.com/godbbench/godbbench/memtable"
)

// memTable is one memtable rep plus what the DB tracks about it.
type memTable struct {
	rep    memtable.Rep
	id     uint64 // increasing creation order
	logNum uint64 // WAL holding its logged writes (0: none)
	limit  uint64 // write_buffer_size
	// logical estimates the bytes inserted (batch bytes plus a per-entry
	// overhead); maintained by the commit leader under DB.mu, so inserts
	// pay no shared atomic for it.
	logical uint64
	// unlogged is set when a write skipped the WAL, so Close flushes it.
	unlogged atomic.Bool
}

func (m *memTable) empty() bool { return m.rep.Len() == 0 }

// memEntryOverhead approximates a rep's per-entry cost beyond key and value
// (node, links, sequence): about 40 bytes for a skiplist node of average
// height 1.33 plus its 8-byte trailer.
const memEntryOverhead = 40

// full reports whether the memtable reached write_buffer_size. Reps allocate
// their arena in blocks (1 MiB of bytes for the skiplist), so a small buffer
// would look full after the first write; the allocated size only counts once
// half the buffer holds real data.
func (m *memTable) full() bool {
	if m.logical >= m.limit {
		return true
	}
	return m.logical >= m.limit/2 && m.rep.ApproximateMemoryUsage() >= m.limit
}

// readState is what a read needs: the memtables and the version, pinned
// together so that a flush cannot move data between them mid-read.
type readState struct {
	mem  *memTable
	imm  []*memTable // oldest first
	v    *version
	refs atomic.Int32
}

func (rs *readState) unref() {
	if rs.refs.Add(-1) == 0 {
		rs.v.unref()
	}
}

// readStateHolder publishes the current readState. Readers take a reference
// under the read lock: two atomic adds on the RWMutex and one on the state,
// about 20-40 ns uncontended.
type readStateHolder struct {
	mu sync.RWMutex
	rs *readState
}

func (h *readStateHolder) get() *readState {
	h.mu.RLock()
	rs := h.rs
	if rs != nil {
		rs.refs.Add(1)
	}
	h.mu.RUnlock()
	return rs
}

// set publishes a new state built from mem, imm and v (DB.mu held).
func (h *readStateHolder) set(mem *memTable, imm []*memTable, v *version) {
	v.ref()
	rs := &readState{mem: mem, imm: append([]*memTable(nil), imm...), v: v}
	rs.refs.Store(1)
	h.mu.Lock()
	old := h.rs
	h.rs = rs
	h.mu.Unlock()
	if old != nil {
		old.unref()
	}
}
