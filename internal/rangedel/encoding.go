package rangedel

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Encode appends l's encoding to dst. It is the range-deletion block of a
// table. "uvarint" is encoding/binary's unsigned LEB128:
//
//	uvarint F                       number of fragments
//	F times, in key order:
//	  uvarint len(Start), Start bytes
//	  uvarint len(End),   End bytes
//	  uvarint S                     number of sequences, at least 1
//	  S times: uvarint sequence     strictly descending
//
// Fragments are non-empty (Start < End) and disjoint: each Start is at or
// after the previous End. The tombstones ["a", "c") at 7 and ["b", "d") at
// 9 encode as
//
//	03                    3 fragments
//	01 61 01 62 01 07     ["a", "b"): 7
//	01 62 01 63 02 09 07  ["b", "c"): 9, 7
//	01 63 01 64 01 09     ["c", "d"): 9
func (l *List) Encode(dst []byte) []byte {
	frags := l.Fragments()
	dst = binary.AppendUvarint(dst, uint64(len(frags)))
	for _, f := range frags {
		dst = binary.AppendUvarint(dst, uint64(len(f.Start)))
		dst = append(dst, f.Start...)
		dst = binary.AppendUvarint(dst, uint64(len(f.End)))
		dst = append(dst, f.End...)
		dst = binary.AppendUvarint(dst, uint64(len(f.Seqs)))
		for _, s := range f.Seqs {
			dst = binary.AppendUvarint(dst, s)
		}
	}
	return dst
}

// ErrMalformed is wrapped by Decode's errors.
var ErrMalformed = errors.New("malformed range deletion block")

// Decode parses an encoding made by Encode. The List refers to b's bytes.
func Decode(b []byte) (*List, error) {
	d := decoder{b: b}
	n := d.uvarint()
	if d.err == nil && n > uint64(len(b)) {
		return nil, fmt.Errorf("%w: %d fragments in %d bytes", ErrMalformed, n, len(b))
	}
	l := &List{frags: make([]Fragment, 0, n)}
	// One backing array for every fragment's sequences.
	var seqs []uint64
	for i := uint64(0); i < n && d.err == nil; i++ {
		var f Fragment
		f.Start = d.bytes()
		f.End = d.bytes()
		k := d.uvarint()
		if d.err != nil {
			break
		}
		if k == 0 || k > uint64(len(d.b)) {
			return nil, fmt.Errorf("%w: fragment %d has %d sequences", ErrMalformed, i, k)
		}
		if bytes.Compare(f.Start, f.End) >= 0 {
			return nil, fmt.Errorf("%w: fragment %d is empty", ErrMalformed, i)
		}
		if i > 0 && bytes.Compare(f.Start, l.frags[i-1].End) < 0 {
			return nil, fmt.Errorf("%w: fragment %d overlaps the one before", ErrMalformed, i)
		}
		start := len(seqs)
		for j := uint64(0); j < k; j++ {
			s := d.uvarint()
			if j > 0 && s >= seqs[len(seqs)-1] {
				return nil, fmt.Errorf("%w: fragment %d's sequences are not descending", ErrMalformed, i)
			}
			seqs = append(seqs, s)
		}
		f.Seqs = seqs[start:len(seqs):len(seqs)]
		l.frags = append(l.frags, f)
		l.count += int(k)
	}
	if d.err != nil {
		return nil, d.err
	}
	if len(d.b) != 0 {
		return nil, fmt.Errorf("%w: %d trailing bytes", ErrMalformed, len(d.b))
	}
	return l, nil
}

// decoder reads the fields of an encoded List, keeping the first error.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = fmt.Errorf("%w: bad varint", ErrMalformed)
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.err = fmt.Errorf("%w: key length %d exceeds the %d bytes left", ErrMalformed, n, len(d.b))
		return nil
	}
	out := d.b[:n:n]
	d.b = d.b[n:]
	return out
}
