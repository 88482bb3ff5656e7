package sortedrun

import "github.com/godbbench/godbbench/internal/base"

// Entry is one internal key and its value. Key and Value point into the
// rep's chunks; an Entry is never modified after it is published.
type Entry struct {
	Key     []byte
	Value   []byte
	Trailer base.Trailer
}

// Compare orders two entries as internal keys: user key ascending, then
// trailer (sequence, kind) descending.
func Compare(a, b Entry) int { return base.Compare(a.Key, a.Trailer, b.Key, b.Trailer) }

// EntrySize is the bytes an Entry takes in an array, for memory accounting.
const EntrySize = 56

// NewEntry copies key and value into one slice from bytes and returns the
// entry that points at the copies.
func NewEntry(bytes *Chunks[byte], seq uint64, kind base.Kind, key, value []byte) Entry {
	buf := bytes.Alloc(len(key) + len(value))
	copy(buf, key)
	copy(buf[len(key):], value)
	e := Entry{Key: buf[:len(key):len(key)], Trailer: base.MakeTrailer(seq, kind)}
	if len(value) > 0 {
		e.Value = buf[len(key):]
	}
	return e
}
