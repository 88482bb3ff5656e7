package rtable

import (
	"fmt"

	"github.com/golang/snappy"
)

// ValueCodec is how a table stores its values (the meta section's value
// codec field).
type ValueCodec uint8

const (
	// ValueRaw stores values as they are.
	ValueRaw ValueCodec = 0
	// ValueSnappy compresses each value on its own, so that a point read
	// decompresses its own value and nothing else. A stored value is empty
	// for an empty value, else one tag byte (tagRaw or tagSnappy) and the
	// value, raw or in the snappy block format; the writer compresses a
	// value only when that saves at least 1/8 of its bytes.
	ValueSnappy ValueCodec = 1
	// ValueDict codes each value against a dictionary of the table, chosen
	// from the first DictSampleBytes of its values (dict.go): a point read
	// decodes its own value, copying from the dictionary. A Writer asked
	// for ValueDict falls back to ValueSnappy for a table whose sample
	// the dictionary does not make smaller than snappy does.
	ValueDict ValueCodec = 2
)

// Tags of a stored value under ValueSnappy.
const (
	tagRaw    = 0
	tagSnappy = 1
)

// encodeValue returns v as the table stores it under w.codec; the result
// may point into w.packed.
func (w *Writer) encodeValue(v []byte) []byte {
	if w.codec == ValueRaw || len(v) == 0 {
		return v
	}
	if w.codec == ValueDict {
		w.packed = w.dict.encode(w.packed[:0], v)
		return w.packed
	}
	need := 1 + snappy.MaxEncodedLen(len(v))
	if cap(w.packed) < need {
		w.packed = make([]byte, need)
	}
	w.packed = w.packed[:need]
	c := snappy.Encode(w.packed[1:], v)
	if len(c) <= len(v)-len(v)/8 {
		w.packed[0] = tagSnappy
		return w.packed[:1+len(c)]
	}
	w.packed = append(w.packed[:0], tagRaw)
	return append(w.packed, v...)
}

// decodeValue returns the value stored as b at ordinal i, decompressing
// into *buf when it must (growing it to the value's length); a value that
// is one copy of the dictionary is returned in place.
func (r *Reader) decodeValue(b []byte, i uint64, buf *[]byte) ([]byte, error) {
	if r.m.valueCodec == uint64(ValueRaw) || len(b) == 0 {
		return b, nil
	}
	if r.m.valueCodec == uint64(ValueDict) {
		if v, ok := dictSingleCopy(b, r.dict); ok {
			return v, nil
		}
		v, what := decodeDictValue((*buf)[:0], b, r.dict)
		*buf = v
		if what != "" {
			return nil, r.badValue(i, what)
		}
		return v, nil
	}
	switch b[0] {
	case tagRaw:
		return b[1:], nil
	case tagSnappy:
		n, err := snappy.DecodedLen(b[1:])
		if err != nil || n > maxValueLen {
			return nil, r.badValue(i, fmt.Sprintf("snappy length %d: %v", n, err))
		}
		if cap(*buf) < n {
			*buf = make([]byte, n)
		}
		v, err := snappy.Decode((*buf)[:n], b[1:])
		if err != nil || len(v) != n {
			return nil, r.badValue(i, fmt.Sprintf("snappy: %v", err))
		}
		return v, nil
	}
	return nil, r.badValue(i, fmt.Sprintf("value tag %d", b[0]))
}

// maxValueLen bounds a decompressed value, as sst.MaxValueLen bounds a
// written one.
const maxValueLen = 1 << 28

func (r *Reader) badValue(i uint64, what string) error {
	start, _, _ := r.valueRange(i)
	return corruptf(r.name, r.m.dictBytes+start, "value %d: %s", i, what)
}
