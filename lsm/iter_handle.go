package lsm

import "github.com/godbbench/godbbench/internal/invariants"

// Iterator walks the user keys visible at one sequence number, in either
// direction. Values are loaded only when Value is called.
//
// Forward, the merged stream is positioned at the visible entry of the
// current key, so Value reads straight from it. Backward, the walk must pass
// the newest version of a key before knowing it is visible; the key is
// copied and the stream sits before it, and Value re-seeks forward to the
// key to load its value (so key-only reverse scans never touch values);
// without KeysOnly the value is copied during the backward walk instead.
//
// Errors: an error met by any source (a table that cannot be opened, a
// block with a bad checksum, a short file) makes the iterator invalid at
// once, with Error set; no entry after it is returned, since the failed
// source may hold newer versions or tombstones of the keys that follow.
// Next and Prev after an error return false and keep the error. First,
// Last and the seeks clear it and start over, as RocksDB's DBIter does
// (its status is reset by every seek); they return false with Error set
// again if the error persists. A fault reading a mapped table whose file
// shrank is such an error (fault.go).
//
// Closing: Close releases the iterator's state (iterBundle, iter_alloc.go)
// for the next NewIter to reuse, and the handle lets go of it, so a call
// after Close cannot reach another iterator's state: positioning returns
// false, Valid false, Key nil, and Value, Error and Close return
// ErrIterClosed.
type Iterator struct {
	b *iterBundle // nil once closed
}

// ErrIterClosed is returned by an Iterator used after its Close.
var ErrIterClosed = errorString("lsm: iterator used after Close")

// First moves to the first key.
func (h *Iterator) First() bool { return h.b != nil && h.b.it.First() }

// Last moves to the last key.
func (h *Iterator) Last() bool { return h.b != nil && h.b.it.Last() }

// SeekGE moves to the first key >= key.
func (h *Iterator) SeekGE(key []byte) bool { return h.b != nil && h.b.it.SeekGE(key) }

// SeekLE moves to the last key <= key (RocksDB's SeekForPrev).
func (h *Iterator) SeekLE(key []byte) bool { return h.b != nil && h.b.it.SeekLE(key) }

// SeekLT moves to the last key < key.
func (h *Iterator) SeekLT(key []byte) bool { return h.b != nil && h.b.it.SeekLT(key) }

// Next moves to the following key.
func (h *Iterator) Next() bool { return h.b != nil && h.b.it.Next() }

// Prev moves to the preceding key.
func (h *Iterator) Prev() bool { return h.b != nil && h.b.it.Prev() }

// Valid reports whether the iterator is at a key.
func (h *Iterator) Valid() bool { return h.b != nil && h.b.it.valid }

// Key is the current key, valid until the iterator moves.
func (h *Iterator) Key() []byte {
	if h.b == nil {
		return nil
	}
	return h.b.it.key
}

// Value loads the current value, valid until the iterator moves.
func (h *Iterator) Value() ([]byte, error) {
	if h.b == nil {
		return nil, ErrIterClosed
	}
	return h.b.it.Value()
}

// Error reports the first error met.
func (h *Iterator) Error() error {
	if h.b == nil {
		return ErrIterClosed
	}
	return h.b.it.err
}

// ScanCount steps over up to n keys (dbIter.ScanCount, iter_scan.go).
func (h *Iterator) ScanCount(n int, stepFirst, reverse bool, doneNs []int64) (count int, bytes int64, more bool, valueErr error) {
	if h.b == nil {
		return 0, 0, false, ErrIterClosed
	}
	return h.b.it.ScanCount(n, stepFirst, reverse, doneNs)
}

// Close releases the iterator's pinned tables and its state.
func (h *Iterator) Close() error {
	b := h.b
	if b == nil {
		if invariants.Enabled {
			checkClose("iterator", true)
		}
		return ErrIterClosed
	}
	h.b = nil
	err := b.it.Close()
	putBundle(b)
	return err
}
