package rtable

import (
	"encoding/binary"
	"slices"

	"github.com/godbbench/godbbench/internal/base"
)

// Key batches: on a table whose entries all share one trailer and whose
// keys all have one length (packed keys and no trailers section, such as a
// bottommost table whose entries are all at sequence 0), the header of a
// batch record (AppendBatch) says nothing an entry does not share with
// every other. A walk without values then copies the keys alone:
//
//	offset 0:        key 0, keyLen bytes
//	offset keyLen:   key 1, keyLen bytes
//	...
//
// the entries in walk order, each with the table's one trailer (Uniform).
// A key of up to 8 bytes takes one 8-byte store (packedRecord.putKey).

// Uniform reports whether every entry of the table has the same trailer
// and a user key of the same length, and returns them when it does: a
// table of packed keys with no trailers section. AppendKeys copies the
// keys of such a table.
func (r *Reader) Uniform() (trailer base.Trailer, keyLen int, ok bool) {
	if r.m.keyMode != keysPacked || r.trailers != nil {
		return 0, 0, false
	}
	return base.Trailer(r.m.baseTrailer), int(r.m.keyLen), true
}

// AppendKeys appends the user keys of the current entry and the entries
// after it in o's direction, back to back with nothing between them, and
// leaves the iterator on the last entry appended, as AppendBatch does
// with records: the same stops (o.MaxEntries keys, or the first key that
// takes the batch to o.MaxBytes, at least one), n the number of keys
// appended, more whether an entry follows the last one. o.Values is
// ignored. On a table that is not Uniform, or an invalid iterator, it
// appends nothing. It allocates only when dst must grow.
func (t *Iter) AppendKeys(dst []byte, o BatchOptions) (out []byte, n int, more bool) {
	r := t.r
	if !t.Valid() || r.m.keyMode != keysPacked || r.trailers != nil {
		return dst, 0, false
	}
	rec := newPackedRecord(r.m.prefix, r.m.suffix, int(r.m.keyWidth))
	kl := rec.keyLen
	n, step, left := t.runLength(o, kl)
	start := len(dst)
	dst = slices.Grow(dst, n*kl+packedSlack)
	b := dst[start : start+n*kl+packedSlack]
	pos := t.pos
	if rec.short {
		word, shift := rec.keyWord, rec.wordShift
		for range n {
			binary.BigEndian.PutUint64(b, word|r.packedKey(uint64(pos))<<shift)
			b = b[kl:]
			pos += step
		}
	} else {
		for range n {
			rec.putKey(b, r.packedKey(uint64(pos)))
			b = b[kl:]
			pos += step
		}
	}
	t.pos = pos - step
	return dst[:start+n*kl], n, int64(n) < left
}
