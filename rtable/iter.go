package rtable

import (
	"fmt"

	"github.com/godbbench/godbbench/internal/base"
)

// Iter walks all entries of a table (every version) in internal-key order:
// user key ascending, then seq descending. Moving reads the keys section
// (and the trailers section when Seq or Kind is asked for); only Value
// reads the value area, so a scan that never calls Value never touches a
// value page. An Iter is used by one goroutine at a time and allocates
// nothing once its key buffer has grown to the longest key.
type Iter struct {
	r *Reader
	// pos is the current ordinal: -1 before the first entry, n after the
	// last.
	pos int64
	// key holds the user key of entry keyPos (packed keys: the prefix and
	// suffix are written once and only the varying bytes change).
	key    []byte
	keyPos int64
	// valueBuf holds the current value of a compressed table.
	valueBuf []byte
	err      error
}

// NewIter returns an unpositioned iterator.
func (r *Reader) NewIter() *Iter {
	t := &Iter{r: r, pos: -1, keyPos: -1}
	if r.m.keyMode == keysPacked {
		t.key = make([]byte, r.m.keyLen)
		copy(t.key, r.m.prefix)
		copy(t.key[len(r.m.prefix)+int(r.m.keyWidth):], r.m.suffix)
	} else {
		t.key = append(t.key, r.m.prefix...)
	}
	return t
}

func (t *Iter) n() int64 { return int64(t.r.m.entries) }

// First moves to the first entry.
func (t *Iter) First() bool { return t.set(0) }

// Last moves to the last entry.
func (t *Iter) Last() bool { return t.set(t.n() - 1) }

// SeekGE moves to the first entry whose user key is >= userKey, which is
// that key's newest version.
func (t *Iter) SeekGE(userKey []byte) bool {
	if t.n() == 0 {
		return t.set(0)
	}
	return t.set(int64(t.r.lowerBound(userKey)))
}

// SeekLT moves to the last entry whose user key is < userKey.
func (t *Iter) SeekLT(userKey []byte) bool {
	if t.n() == 0 {
		return t.set(-1)
	}
	return t.set(int64(t.r.lowerBound(userKey)) - 1)
}

// Next moves to the next entry; on an unpositioned iterator, to the first.
func (t *Iter) Next() bool {
	if t.pos >= t.n() {
		return false
	}
	return t.set(t.pos + 1)
}

// Prev moves to the previous entry; past the end, to the last.
func (t *Iter) Prev() bool {
	if t.pos < 0 {
		return false
	}
	return t.set(t.pos - 1)
}

func (t *Iter) set(pos int64) bool {
	t.err = nil
	t.pos = max(-1, min(pos, t.n()))
	return t.Valid()
}

// Valid reports whether the iterator is on an entry.
func (t *Iter) Valid() bool { return t.err == nil && t.pos >= 0 && t.pos < t.n() }

// Key returns the current user key, valid until the next move.
func (t *Iter) Key() []byte {
	if !t.Valid() {
		return nil
	}
	if t.keyPos == t.pos {
		return t.key
	}
	r, i := t.r, uint64(t.pos)
	if r.m.keyMode == keysVariable {
		if len(r.m.prefix) == 0 {
			return r.varKey(i) // in place: the common prefix is empty
		}
		t.key = append(t.key[:len(r.m.prefix)], r.varKey(i)...)
	} else {
		v := r.packedKey(i)
		k := t.key[len(r.m.prefix) : len(r.m.prefix)+int(r.m.keyWidth)]
		for j := len(k) - 1; j >= 0; j-- {
			k[j] = byte(v)
			v >>= 8
		}
	}
	t.keyPos = t.pos
	return t.key
}

// Seq returns the current entry's sequence number.
func (t *Iter) Seq() uint64 { return t.trailer().Seq() }

// Kind returns the current entry's kind.
func (t *Iter) Kind() base.Kind { return t.trailer().Kind() }

func (t *Iter) trailer() base.Trailer {
	if !t.Valid() {
		return 0
	}
	return t.r.trailer(uint64(t.pos))
}

// Value returns the current value, valid until the iterator moves: in
// place in the mapping, or decompressed into the iterator's buffer.
func (t *Iter) Value() ([]byte, error) {
	if !t.Valid() {
		return nil, fmt.Errorf("rtable: Value on an invalid iterator")
	}
	v, err := t.r.value(uint64(t.pos))
	if err == nil {
		v, err = t.r.decodeValue(v, uint64(t.pos), &t.valueBuf)
	}
	if err != nil {
		t.err = err
	}
	return v, err
}

// Error returns the error that stopped the iterator, if any.
func (t *Iter) Error() error { return t.err }

// Close releases the iterator and returns its error.
func (t *Iter) Close() error {
	t.pos, t.keyPos = -1, -1
	return t.err
}
