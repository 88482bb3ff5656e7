package lsm

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/godbbench/godbbench/internal/rangedel"
)

// memRangeDels holds a memtable's range tombstones apart from its rep, as
// RocksDB keeps them in a skiplist of their own: the rep's point entries
// stay ordinary (user key, sequence) entries, and reads ask this list for
// the newest tombstone covering a key.
//
// Writers append under mu (DeleteRange is rare next to point writes).
// Readers take the fragmented view published in view, which costs one
// atomic load while no tombstone was added since it was built; the first
// read after an addition rebuilds it under mu. A reader whose snapshot
// predates a tombstone may get a view holding it; List.Covering ignores
// tombstones above the snapshot.
type memRangeDels struct {
	mu    sync.Mutex
	tombs []rangedel.Tombstone // guarded by mu; bytes owned here
	n     atomic.Int64         // len(tombs), stored after each append
	bytes atomic.Uint64        // keys and Tombstone structs of tombs
	view  atomic.Pointer[memRangeDelView]
}

// memRangeDelView is a fragmented view of the first n tombstones.
type memRangeDelView struct {
	n    int64
	list *rangedel.List
}

// add records the tombstone [start, end) at seq, copying the keys.
func (d *memRangeDels) add(start, end []byte, seq uint64) {
	buf := make([]byte, len(start)+len(end))
	copy(buf, start)
	copy(buf[len(start):], end)
	t := rangedel.Tombstone{Start: buf[:len(start):len(start)], End: buf[len(start):], Seq: seq}
	d.mu.Lock()
	d.tombs = append(d.tombs, t)
	d.n.Store(int64(len(d.tombs)))
	d.bytes.Add(uint64(len(buf)) + uint64(unsafe.Sizeof(t)))
	d.mu.Unlock()
}

// memoryUsage is the bytes the tombstones take: their keys and their
// Tombstone structs (not the fragmented view, which is rebuilt on demand).
func (d *memRangeDels) memoryUsage() uint64 { return d.bytes.Load() }

// count is the number of tombstones added.
func (d *memRangeDels) count() int64 { return d.n.Load() }

// list returns the fragmented tombstones, or nil when there are none.
func (d *memRangeDels) list() *rangedel.List {
	n := d.n.Load()
	if n == 0 {
		return nil
	}
	if v := d.view.Load(); v != nil && v.n >= n {
		return v.list
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if v := d.view.Load(); v != nil && v.n == int64(len(d.tombs)) {
		return v.list
	}
	// Build reorders its argument; the tombstones keep their order.
	l := rangedel.Build(append([]rangedel.Tombstone(nil), d.tombs...))
	d.view.Store(&memRangeDelView{n: int64(len(d.tombs)), list: l})
	return l
}
