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
)

// Tags of a stored value under ValueSnappy.
const (
	tagRaw    = 0
	tagSnappy = 1
)

// encodeValue returns v as the table stores it; the result may point into
// w.packed.
func (w *Writer) encodeValue(v []byte) []byte {
	if w.opts.ValueCompression == ValueRaw || len(v) == 0 {
		return v
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
// into *buf when it must (growing it to the value's length).
func (r *Reader) decodeValue(b []byte, i uint64, buf *[]byte) ([]byte, error) {
	if r.m.valueCodec == uint64(ValueRaw) || len(b) == 0 {
		return b, nil
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
	return corruptf(r.name, start, "value %d: %s", i, what)
}
