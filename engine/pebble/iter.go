package pebble

import (
	"bytes"
	"errors"
	"sync"

	"github.com/cockroachdb/pebble/v2"

	"github.com/godbbench/godbbench/engine"
)

// iterator is an engine.Iterator over a *pebble.Iterator. Wrappers are
// pooled with their bound and seek buffers, so after warm-up NewIter
// allocates only what Pebble allocates (Pebble pools its iterators too).
type iterator struct {
	it           *pebble.Iterator // nil once closed
	lower, upper []byte           // copies of the bounds; Pebble keeps pointers to them
	seekBuf      []byte           // SeekLE's successor key
	// prefixLen > 0 makes SeekGE to a key of at least that many bytes a
	// prefix seek (--prefix_same_as_start; prefix.go).
	prefixLen int
}

var iteratorPool = sync.Pool{New: func() any { return new(iterator) }}

var errIterClosed = errors.New("pebble: iterator is closed")

func newIterator(db *pebble.DB, o *engine.IterOptions, prefixLen int) (*iterator, error) {
	w := iteratorPool.Get().(*iterator)
	w.prefixLen = prefixLen
	var po pebble.IterOptions
	if o != nil {
		// The engine contract lets the caller reuse its slices once NewIter
		// returns, and Pebble reads the bounds for the iterator's whole life.
		// An empty lower bound excludes nothing; it is dropped because Pebble
		// with -race seeks to it and cannot seek to "" (see SeekGE).
		if len(o.LowerBound) > 0 {
			w.lower = append(nonNil(w.lower), o.LowerBound...)
			po.LowerBound = w.lower
		}
		if o.UpperBound != nil {
			w.upper = append(nonNil(w.upper), o.UpperBound...)
			po.UpperBound = w.upper
		}
		// Pebble ignores an empty upper bound, though nothing sorts below
		// "", and wants lower < upper. An empty range is given to Pebble as
		// ["\x00", "\x00"), which holds no key, so the positioning methods
		// need no extra branch.
		if o.UpperBound != nil && bytes.Compare(o.LowerBound, o.UpperBound) >= 0 {
			w.lower = append(nonNil(w.lower), 0)
			w.upper = append(nonNil(w.upper), 0)
			po.LowerBound, po.UpperBound = w.lower, w.upper
		}
	}
	it, err := db.NewIter(&po)
	if err != nil {
		iteratorPool.Put(w)
		return nil, err
	}
	w.it = it
	return w, nil
}

// nonNil returns buf emptied, allocated if it was nil.
func nonNil(buf []byte) []byte {
	if buf == nil {
		return make([]byte, 0, 32)
	}
	return buf[:0]
}

func (w *iterator) First() bool { return w.it.First() }

func (w *iterator) Last() bool { return w.it.Last() }

// SeekGE positions at the first key >= key; under --prefix_same_as_start
// it is Pebble's SeekPrefixGE, which ends the walk at the key's prefix
// (and after which Pebble refuses Prev). SeekGE("") is First: nothing
// sorts below "", and Pebble v2.1.7 built with -race or the invariants tag
// indexes key[0] in its seek path (testingDisableSeekOpt) and panics on an
// empty key.
func (w *iterator) SeekGE(key []byte) bool {
	if len(key) == 0 {
		return w.it.First()
	}
	if w.prefixLen > 0 && len(key) >= w.prefixLen {
		return w.it.SeekPrefixGE(key)
	}
	return w.it.SeekGE(key)
}

// SeekLE positions at the last key <= key. The immediate successor of key in
// bytewise order is key+"\x00" (no key sorts between them), so the last key
// below that successor is the last key <= key: one SeekLT, no extra step.
func (w *iterator) SeekLE(key []byte) bool {
	w.seekBuf = append(append(w.seekBuf[:0], key...), 0)
	return w.it.SeekLT(w.seekBuf)
}

func (w *iterator) Next() bool { return w.it.Next() }

func (w *iterator) Prev() bool { return w.it.Prev() }

func (w *iterator) Valid() bool { return w.it.Valid() }

func (w *iterator) Key() []byte { return w.it.Key() }

// Value returns the current value; Pebble fetches values kept out of line
// (value blocks) only here.
func (w *iterator) Value() ([]byte, error) { return w.it.ValueAndErr() }

func (w *iterator) Error() error { return w.it.Error() }

// Close releases the Pebble iterator and returns the wrapper to the pool.
func (w *iterator) Close() error {
	if w.it == nil {
		return errIterClosed
	}
	err := w.it.Close()
	w.it = nil
	iteratorPool.Put(w)
	return err
}
