// Package memtable defines Rep, the in-memory sorted store of the native
// engine's write path, and the registry of its implementations (skiplist,
// offsetskiplist, cspp, badgerskl, vector, hashrep's prefix_hash and
// hash_linkedlist).
//
// Contract:
//   - Entries are internal keys (internal/base): a user key plus a sequence
//     number and a kind. Order is user key ascending (bytewise), then
//     sequence descending, so the newest version of a key comes first.
//   - Add may be called concurrently from many goroutines; it copies key and
//     value. Adding the same (user key, sequence) twice is a caller bug.
//   - Get and iterators may run concurrently with Add and see a consistent
//     prefix of completed Adds.
//   - Bytes returned by Get's callback and by Iter.Key/Value stay valid for the
//     life of the Rep (they live in its arena).
//   - An iterator may implement Closer. Whoever makes an iterator checks for
//     it once, when making it (never per operation), and calls Close when
//     done with the iterator, and before putting it in a pool.
package memtable

import (
	"errors"

	"github.com/godbbench/godbbench/internal/base"
)

// ErrFull is returned by Add when the rep's arena cannot hold the entry.
var ErrFull = errors.New("memtable: arena full")

// Rep is one memtable.
type Rep interface {
	// Add inserts (key, seq, kind) -> value. It returns ErrFull when out of space.
	Add(seq uint64, kind base.Kind, key, value []byte) error
	// Get finds the newest version of key with sequence <= snapshot. found is
	// false when the key has no visible version; kind tells a value from a
	// tombstone.
	Get(key []byte, snapshot uint64) (value []byte, kind base.Kind, found bool)
	// NewIter returns an iterator over all entries in internal-key order.
	NewIter() Iter
	// ApproximateMemoryUsage is the bytes allocated for this rep.
	ApproximateMemoryUsage() uint64
	// Len is the number of entries added.
	Len() int64
}

// Releaser is implemented by reps that can hand their memory back for reuse
// as soon as their owner is done with them, rather than when the garbage
// collector finds them unreachable. The owner calls Release at most once,
// after the last use of the rep, of its iterators and of every byte they
// handed out.
type Releaser interface {
	Release()
}

// SnapshotIters is implemented by reps whose iterators see only the
// entries added before NewIter made them (vector and the hash reps sort
// the entries into a run then). An iterator of such a rep kept for later
// lookups (a pool) misses every later Add, so whoever keeps iterators
// makes new ones for these reps; the other reps' iterators read the live
// structure, and a kept one sees every completed Add.
type SnapshotIters interface {
	SnapshotIters()
}

// Closer is implemented by iterators that may hold something of their Rep
// between calls (cspp holds an epoch registration, which keeps the runs it
// reads from being reused). Close lets go of it; the iterator's current
// entry stays readable, and a later call may position or move it again,
// taking hold anew. Close may be called any number of times. An iterator
// never closed is still correct, but may keep its Rep from reusing memory
// for as long as it stays valid.
type Closer interface {
	Close()
}

// Iter walks a Rep in internal-key order. Positioning methods return validity.
type Iter interface {
	First() bool
	Last() bool
	// Seek positions at the first entry >= (key, seq) in internal-key order,
	// i.e. the first user key >= key, and within key the first version with
	// sequence <= seq. Use seq = base.MaxSeq for "the newest version of key".
	Seek(key []byte, seq uint64) bool
	// SeekForPrev positions at the last entry <= (key, seq).
	SeekForPrev(key []byte, seq uint64) bool
	Next() bool
	Prev() bool
	Valid() bool
	Key() []byte // user key
	Seq() uint64
	Kind() base.Kind
	Value() []byte
}

// Pointed is implemented by reps whose entries have stable references, so
// that an index kept beside the rep (the native engine's memtable point
// index) can name an entry and resume a lookup from it instead of
// searching. A reference is never 0 and stays valid for the life of the
// rep.
type Pointed interface {
	// AddRef is Add, returning the reference of the entry it added.
	AddRef(seq uint64, kind base.Kind, key []byte, value []byte) (ref uint32, err error)
	// EachRef calls fn with the reference of every entry added before the
	// call, and perhaps of some added during it.
	EachRef(fn func(ref uint32))
	// EntryAt returns the user key and trailer of the entry ref.
	EntryAt(ref uint32) (key []byte, trailer base.Trailer)
	// RefBound bounds the references of the entries added while the rep
	// holds at most bytes bytes of memory: each is below it (later entries
	// may get larger ones).
	RefBound(bytes uint64) uint64
	// GetFrom is Get for key, starting at ref, an entry of key that sorts
	// at or before every version of key Get would return (a newer or the
	// same version): it walks the versions of key from ref in order.
	GetFrom(ref uint32, key []byte, snapshot uint64) (value []byte, kind base.Kind, found bool)
}
