package sortedrun

import (
	"bytes"

	"github.com/godbbench/godbbench/internal/base"
)

// Entry is one internal key and its value, 64 bytes: one cache line in an
// array. Key and Value point into the rep's chunks; Prefix is the key's
// first 8 bytes read big-endian (zero-padded), so most comparisons in a
// search or a sort decide on it without reading the key's bytes elsewhere
// in memory. An Entry is never modified after it is published.
type Entry struct {
	Key     []byte
	Value   []byte
	Trailer base.Trailer
	Prefix  uint64
}

// EntrySize is the bytes an Entry takes in an array, for memory accounting.
const EntrySize = 64

// Compare orders two entries as internal keys: user key ascending, then
// trailer (sequence, kind) descending.
func Compare(a, b Entry) int {
	if a.Prefix != b.Prefix {
		if a.Prefix < b.Prefix {
			return -1
		}
		return 1
	}
	return base.Compare(a.Key, a.Trailer, b.Key, b.Trailer)
}

// Target is an internal key being searched for, with its prefix.
type Target struct {
	Key     []byte
	Prefix  uint64
	Trailer base.Trailer
}

// NewTarget returns the search target (key, trailer).
func NewTarget(key []byte, trailer base.Trailer) Target {
	return Target{Key: key, Prefix: base.KeyPrefix(key), Trailer: trailer}
}

// Before reports whether e sorts before t.
func (e *Entry) Before(t *Target) bool {
	if e.Prefix != t.Prefix {
		return e.Prefix < t.Prefix
	}
	if c := bytes.Compare(e.Key, t.Key); c != 0 {
		return c < 0
	}
	return e.Trailer > t.Trailer
}

// NewEntry copies key and value into one slice from bytes and returns the
// entry that points at the copies.
func NewEntry(bytes *Chunks[byte], seq uint64, kind base.Kind, key, value []byte) Entry {
	buf := bytes.Alloc(len(key) + len(value))
	copy(buf, key)
	copy(buf[len(key):], value)
	e := Entry{Key: buf[:len(key):len(key)], Trailer: base.MakeTrailer(seq, kind), Prefix: base.KeyPrefix(key)}
	if len(value) > 0 {
		e.Value = buf[len(key):]
	}
	return e
}
