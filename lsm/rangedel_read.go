package lsm

import (
	"sync"
	"sync/atomic"

	"github.com/godbbench/godbbench/internal/rangedel"
)

// Reads and range tombstones. A point entry (k, s) is deleted for a reader
// at snapshot S when a range tombstone [start, end) with start <= k < end
// has a sequence t with s < t <= S, wherever each of them lives: sequence
// numbers, not levels, decide. So a read gathers, once, the newest such t
// for its key from every memtable and from the version's tables holding
// tombstones, and treats an entry older than it as a tombstone.
//
// The version's tombstones are fragmented together once per version, on
// the first read that needs them (versionRangeDels); tables without range
// tombstones (fileMeta.numRangeDels == 0, known from the MANIFEST) are
// never opened for it. A DB that never had a range tombstone pays one
// atomic load per memtable and one for the version per Get or NewIter.

// versionRangeDels is a version's fragmented range tombstones, built on
// first use.
type versionRangeDels struct {
	built atomic.Bool // list is final
	mu    sync.Mutex  // held while building
	list  *rangedel.List
}

// rangeDels returns the fragmented tombstones of v's tables (nil when none
// has any). Opening a table may fail: that read fails with the error, and
// the next read tries again (a transient failure, a descriptor limit, must
// not fail every read of the version for its life).
func (v *version) rangeDels(db *DB) (*rangedel.List, error) {
	d := &v.dels
	if d.built.Load() {
		return d.list, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.built.Load() {
		return d.list, nil
	}
	list, err := db.tablesRangeDels(v.levels...)
	if err != nil {
		return nil, err
	}
	d.list = list
	d.built.Store(true)
	return list, nil
}

// rangeDelCursors appends to dst a cursor over each non-empty tombstone
// list a read of rs consults: each memtable's and the version's.
func (rs *readState) rangeDelCursors(db *DB, dst []rangedel.Cursor) ([]rangedel.Cursor, error) {
	if l := rs.mem.rangeDels.list(); l != nil {
		dst = append(dst, rangedel.Cursor{List: l})
	}
	for _, m := range rs.imm {
		if l := m.rangeDels.list(); l != nil {
			dst = append(dst, rangedel.Cursor{List: l})
		}
	}
	l, err := rs.v.rangeDels(db)
	if l != nil {
		dst = append(dst, rangedel.Cursor{List: l})
	}
	return dst, err
}

// rangeDelCover returns the newest sequence at or below snapshot of a range
// tombstone covering key in rs, or 0 when none does.
func (rs *readState) rangeDelCover(db *DB, key []byte, snapshot uint64) (uint64, error) {
	var cover uint64
	if l := rs.mem.rangeDels.list(); l != nil {
		cover = l.Covering(key, snapshot)
	}
	for _, m := range rs.imm {
		if l := m.rangeDels.list(); l != nil {
			cover = max(cover, l.Covering(key, snapshot))
		}
	}
	l, err := rs.v.rangeDels(db)
	if l != nil {
		cover = max(cover, l.Covering(key, snapshot))
	}
	return cover, err
}
