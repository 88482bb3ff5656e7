package rtable

import (
	"encoding/binary"
	"slices"
)

// AppendBatch copies a run of consecutive entries out of the table in one
// call, for a caller that must not keep pointers into the mapping (one that
// reads it under a fault guard and wants one guard per run, not per entry).
//
// Each entry becomes one batch record appended to dst:
//
//	offset 0:  trailer, u64 little endian (seq<<8 | kind)
//	offset 8:  key length k, u32 little endian
//	offset 12: value length v, u32 little endian (0 without values)
//	offset 16: the user key, k bytes
//	offset 16+k: the value, v bytes, decoded (as Value returns it)
//
// BatchRecordHeader is the 16 bytes before the key.
const BatchRecordHeader = 16

// BatchOptions bound one AppendBatch call.
type BatchOptions struct {
	// MaxEntries is the most records to append (at least one is).
	MaxEntries int
	// MaxBytes stops the batch once the records appended reach it.
	MaxBytes int
	// Reverse walks toward lower ordinals (Prev), else higher (Next).
	Reverse bool
	// Values copies the values; without it value lengths are 0 and no
	// value page is read.
	Values bool
}

// AppendBatch appends the records of the current entry and the entries
// after it in o's direction, as the moves Next (or Prev) would reach them,
// and leaves the iterator on the last entry appended. n is the number of
// records appended (0 on an invalid iterator); more reports that an entry
// follows the last one in o's direction.
//
// A value that cannot be loaded ends the batch at its entry: the record is
// appended with an empty value and valErr is that entry's Value error; the
// iterator stays valid there. AppendBatch allocates only when dst must
// grow.
func (t *Iter) AppendBatch(dst []byte, o BatchOptions) (out []byte, n int, more bool, valErr error) {
	if !t.Valid() {
		return dst, 0, false, nil
	}
	r := t.r
	step, end := int64(1), t.n()
	if o.Reverse {
		step, end = -1, -1
	}
	start := len(dst)
	for pos := t.pos; ; pos += step {
		t.pos = pos
		i := uint64(pos)
		h := len(dst)
		dst = slices.Grow(dst, BatchRecordHeader+int(r.m.keyLen))
		dst = binary.LittleEndian.AppendUint64(dst, uint64(r.trailer(i)))
		dst = dst[:h+BatchRecordHeader]
		dst = r.appendKey(dst, i)
		binary.LittleEndian.PutUint32(dst[h+8:], uint32(len(dst)-h-BatchRecordHeader))
		vs := len(dst)
		if o.Values {
			dst, valErr = r.appendValue(dst, i, &t.valueBuf)
			if valErr != nil {
				dst = dst[:vs]
			}
		}
		binary.LittleEndian.PutUint32(dst[h+12:], uint32(len(dst)-vs))
		n++
		more = pos+step != end
		if valErr != nil || !more || n >= o.MaxEntries || len(dst)-start >= o.MaxBytes {
			return dst, n, more, valErr
		}
	}
}

// appendValue appends value i, decoded, to dst; scratch is a buffer for
// the codecs that cannot decode in place at dst's end.
func (r *Reader) appendValue(dst []byte, i uint64, scratch *[]byte) ([]byte, error) {
	b, err := r.value(i)
	if err != nil {
		return dst, err
	}
	switch {
	case r.m.valueCodec == uint64(ValueRaw) || len(b) == 0:
		return append(dst, b...), nil
	case r.m.valueCodec == uint64(ValueDict):
		n := len(dst)
		out, what := decodeDictValue(dst, b, r.dict)
		if what != "" {
			return out[:n], r.badValue(i, what)
		}
		return out, nil
	}
	v, err := r.decodeValue(b, i, scratch)
	if err != nil {
		return dst, err
	}
	return append(dst, v...), nil
}
