// Package vector is RocksDB's VectorRep (memtable/vectorrep.cc) for the
// native engine, registered as "vector" and "VectorRepFactory": Add appends
// to an array under a mutex, and the total order is made only when it is
// read. "vector:N" reserves room for N entries up front (VectorRepFactory's
// count).
//
// Contract (memtable.Rep): Add may run from many goroutines; they take
// turns on the array's mutex, as RocksDB's writers take VectorRep's lock.
// A reader sorts what was added so far into a run (sortedrun.Cache) and
// keeps it; the next reader that finds more entries sorts only the new ones
// and merges them in. RocksDB sorts a copy of the whole vector for every
// iterator of a mutable memtable and sorts an immutable one in place once;
// here the run of an immutable memtable is likewise built once, by its
// first reader (usually the flush), and shared by all later ones. Get does
// not sort: it binary-searches the run and scans the entries added since,
// and rebuilds the run first only when those are more than rescanLimit.
//
// Memory: entries are 64-byte array slots pointing at key and value copies
// in 1 MiB byte chunks; the sorted run is a second array of slots. Nothing
// is persisted, so there is no on-disk format.
package vector

import (
	"bytes"
	"sync"
	"sync/atomic"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/memtable"
	"github.com/godbbench/godbbench/memtable/internal/sortedrun"
)

// rescanLimit bounds the entries added since the last sort that a Get scans
// one by one before it re-sorts.
const rescanLimit = 256

// byteChunk is the size of the chunks keys and values are copied into.
const byteChunk = 1 << 20

func init() {
	memtable.Register([]string{"vector", "VectorRepFactory"}, func(cfg memtable.Config) (memtable.Rep, error) {
		return New(cfg.Param), nil
	})
}

// Rep is a vector memtable.
type Rep struct {
	bytes sortedrun.Chunks[byte]

	mu      sync.RWMutex
	entries []sortedrun.Entry // in insertion order; guarded by mu
	count   atomic.Int64      // len(entries)
	slots   atomic.Int64      // cap(entries), for ApproximateMemoryUsage

	sorted sortedrun.Cache
}

// New returns an empty vector rep with room reserved for reserve entries.
func New(reserve int) *Rep {
	r := &Rep{entries: make([]sortedrun.Entry, 0, max(reserve, 0))}
	r.slots.Store(int64(cap(r.entries)))
	r.bytes.ChunkLen = byteChunk
	return r
}

// Add appends (key, seq, kind) -> value.
func (r *Rep) Add(seq uint64, kind base.Kind, key, value []byte) error {
	e := sortedrun.NewEntry(&r.bytes, seq, kind, key, value)
	r.mu.Lock()
	r.entries = append(r.entries, e)
	r.count.Store(int64(len(r.entries)))
	r.slots.Store(int64(cap(r.entries)))
	r.mu.Unlock()
	return nil
}

// added returns the entries added so far. Slots below its length are never
// written again, so the caller may read them without the lock.
func (r *Rep) added() []sortedrun.Entry {
	r.mu.RLock()
	all := r.entries
	r.mu.RUnlock()
	return all
}

// run returns the sorted run of all entries in all, built or extended as
// needed.
func (r *Rep) run(all []sortedrun.Entry) sortedrun.Run {
	return r.sorted.Get(int64(len(all)), func(old sortedrun.Run) sortedrun.Run {
		fresh := make([]sortedrun.Entry, len(all)-len(old))
		copy(fresh, all[len(old):])
		sortedrun.Sort(fresh)
		if len(old) == 0 {
			return fresh
		}
		return sortedrun.Merge(old, fresh)
	})
}

// Get finds the newest version of key with sequence <= snapshot: a binary
// search of the sorted run and a scan of the entries added after it.
func (r *Rep) Get(key []byte, snapshot uint64) ([]byte, base.Kind, bool) {
	all := r.added()
	run := r.sorted.Peek()
	if len(all)-len(run) > rescanLimit {
		run = r.run(all)
	}
	best, found := run.Get(key, snapshot)
	if len(run) < len(all) {
		for _, e := range all[len(run):] {
			s := e.Trailer.Seq()
			if s <= snapshot && bytes.Equal(e.Key, key) && (!found || s > best.Trailer.Seq()) {
				best, found = e, true
			}
		}
	}
	if !found {
		return nil, 0, false
	}
	return best.Value, best.Trailer.Kind(), true
}

// NewIter returns an iterator over the entries added so far, in order.
func (r *Rep) NewIter() memtable.Iter { return sortedrun.NewIter(r.run(r.added())) }

// SnapshotIters marks the rep's iterators as seeing only the entries added
// before NewIter (memtable.SnapshotIters).
func (*Rep) SnapshotIters() {}

// ApproximateMemoryUsage counts the key and value chunks, the entry array
// and the sorted run.
func (r *Rep) ApproximateMemoryUsage() uint64 {
	return r.bytes.Bytes() + uint64(r.slots.Load()+int64(len(r.sorted.Peek())))*sortedrun.EntrySize
}

// Len is the number of entries added.
func (r *Rep) Len() int64 { return r.count.Load() }
