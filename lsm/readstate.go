package lsm

import (
	"sync/atomic"

	"github.com/godbbench/godbbench/internal/invariants"
)

// readState is what a read needs: the memtables and the version, pinned
// together so that a flush cannot move data between them mid-read. It holds
// a reference on each of its memtables, dropped when its own count reaches 0.
//
// A readState is immutable once published. Its reference count starts at 1
// (the holder's reference) and never rises again after reaching 0: the
// version's tables may already be closed by then.
type readState struct {
	mem  *memTable
	imm  []*memTable // oldest first
	v    *version
	refs atomic.Int32
}

// tryRef takes a reference unless the state is already dead.
func (rs *readState) tryRef() bool {
	for n := rs.refs.Load(); n > 0; n = rs.refs.Load() {
		if rs.refs.CompareAndSwap(n, n+1) {
			return true
		}
	}
	return false
}

func (rs *readState) unref() {
	if rs.drop() {
		rs.release()
	}
}

// unrefReading is unref for a read (a Get, an iterator's Close): the last
// reference is released by p, off the read path (purge.go).
func (rs *readState) unrefReading(p *purger) {
	if rs.drop() {
		p.release(rs)
	}
}

// drop drops a reference and reports whether it was the last.
func (rs *readState) drop() bool {
	n := rs.refs.Add(-1)
	if invariants.Enabled {
		checkUnref("read state of version", rs.v.num, n)
	}
	return n == 0
}

// release lets go of the memtables and version of a state whose last
// reference is gone.
func (rs *readState) release() {
	rs.mem.unref()
	for _, m := range rs.imm {
		m.unref()
	}
	rs.v.unref()
}

// readStateHolder publishes the current readState through one atomic
// pointer. A reader loads it and takes a reference with one compare-and-swap
// (about 5-10 ns uncontended, against 20-40 ns for the RWMutex read lock plus
// counter it replaces: RLock and RUnlock are two more atomic read-modify-
// writes on a shared line). A reader that loses the race with a publisher
// finds the old state's count at 0 and simply loads the new one.
type readStateHolder struct {
	p atomic.Pointer[readState]
}

// get returns the current state with a reference held, or nil once closed.
func (h *readStateHolder) get() *readState {
	for {
		rs := h.p.Load()
		if rs == nil || rs.tryRef() {
			return rs
		}
	}
}

// set publishes a new state built from mem, imm and v (DB.mu held).
func (h *readStateHolder) set(mem *memTable, imm []*memTable, v *version) {
	v.ref()
	mem.ref()
	for _, m := range imm {
		m.ref()
	}
	rs := &readState{mem: mem, imm: append([]*memTable(nil), imm...), v: v}
	rs.refs.Store(1)
	if old := h.p.Swap(rs); old != nil {
		old.unref()
	}
}

// clear unpublishes the state (Close); readers then get nil.
func (h *readStateHolder) clear() {
	if old := h.p.Swap(nil); old != nil {
		old.unref()
	}
}
