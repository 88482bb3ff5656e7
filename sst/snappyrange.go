package sst

import (
	"encoding/binary"
	"errors"
	"sync"
)

// A point lookup needs one value of a value block, a hundredth of it at
// db_bench's defaults, yet decoding the snappy block whole was 13% of
// readrandom's CPU on a 1M-key database (the other 87% of the block
// decoded for nothing). snappyRange decodes only the bytes asked for: it
// walks the block's element tags up to the end of the range (reading no
// literal and copying nothing), then writes the range from the literals
// it covers and, for a copy, from the earlier bytes the copy repeats,
// themselves written the same way.
//
// The snappy block format (github.com/google/snappy, format_description.txt):
// a uvarint decoded length, then elements, each starting with a tag byte
// whose low two bits give its kind:
//
//	00 literal: tag>>2 = m; m < 60: m+1 bytes follow; m = 60..63: the
//	   next m-59 bytes hold length-1, little endian, then the bytes
//	01 copy: length 4 + (tag>>2)&7, offset (tag>>5)<<8 | next byte
//	10 copy: length 1 + tag>>2, offset the next 2 bytes, little endian
//	11 copy: length 1 + tag>>2, offset the next 4 bytes, little endian
//
// A copy repeats the length bytes that start offset bytes back in the
// output; offset may be smaller than length (a run), then the copy repeats
// its last offset bytes before it over and over.

// maxRangeElems bounds the elements a range decode indexes: a block whose
// range ends further in is decoded whole (4 KiB blocks of db_bench's
// values hold about 110).
const maxRangeElems = 1024

// maxRangeDepth bounds the chain of copies of copies followed for one byte
// range; deeper chains, and ranges needing more than rangeBudget bytes
// written for every byte asked, are decoded whole instead.
const (
	maxRangeDepth = 16
	rangeBudget   = 8
)

// litRef marks an element's ref as a literal's source offset.
const litRef = 1 << 31

var errSnappyCorrupt = errors.New("snappy: corrupt input")

// snappyRanges pools the element indexes of range decodes, shared by
// every table: 9 KiB each, they are wanted only for a moment per Get.
var snappyRanges = sync.Pool{New: func() any { return new(snappyRange) }}

// snappyRange indexes the elements of one snappy block: start[i] is the
// output offset where element i begins (start[n] is where the last one
// indexed ends), ref[i] the source offset of a literal's bytes with litRef
// set, or a copy's offset.
type snappyRange struct {
	n     int
	start [maxRangeElems + 1]uint32
	ref   [maxRangeElems]uint32
	// period holds, for each depth of write, the bytes a run repeats.
	period [maxRangeDepth + 1][64]byte
}

// decode writes bytes [lo, hi) of the decoded form of src, a snappy block,
// into dst (hi-lo bytes). ok is false, with no error, when the range is
// too involved for a partial decode (see maxRangeElems and maxRangeDepth):
// the caller decodes the block whole. An error reports a malformed element
// among those the range needed or a range outside the block; elements past
// the range are not read.
func (s *snappyRange) decode(dst, src []byte, lo, hi int) (ok bool, err error) {
	size, k := binary.Uvarint(src)
	if k <= 0 || lo < 0 || lo > hi || uint64(hi) > size || len(dst) != hi-lo {
		return false, errSnappyCorrupt
	}
	if lo == hi {
		return true, nil
	}
	if ok, err := s.index(src, k, uint32(hi), size); !ok || err != nil {
		return false, err
	}
	budget := rangeBudget*(hi-lo) + 64
	return s.write(dst, src, uint32(lo), uint32(hi), 0, &budget), nil
}

// index walks the elements of src from offset at to the one that decodes
// output byte need-1, checking each as snappy's decoder does. ok is false
// when that takes more than maxRangeElems elements.
func (s *snappyRange) index(src []byte, at int, need uint32, size uint64) (ok bool, err error) {
	var d uint32
	n := 0
	for d < need {
		if n == maxRangeElems {
			return false, nil
		}
		if at >= len(src) {
			return false, errSnappyCorrupt
		}
		tag := src[at]
		var length, ref uint32
		switch tag & 3 {
		case 0:
			x := uint64(tag >> 2)
			if x < 60 {
				at++
			} else {
				extra := int(x - 59)
				if at+1+extra > len(src) {
					return false, errSnappyCorrupt
				}
				x = 0
				for j := extra; j >= 1; j-- {
					x = x<<8 | uint64(src[at+j])
				}
				at += 1 + extra
			}
			if x+1 > uint64(len(src)-at) {
				return false, errSnappyCorrupt
			}
			length, ref = uint32(x+1), litRef|uint32(at)
			at += int(length)
		case 1:
			if at+2 > len(src) {
				return false, errSnappyCorrupt
			}
			length = 4 + uint32(tag>>2)&7
			ref = uint32(tag&0xe0)<<3 | uint32(src[at+1])
			at += 2
		case 2:
			if at+3 > len(src) {
				return false, errSnappyCorrupt
			}
			length = 1 + uint32(tag>>2)
			ref = uint32(binary.LittleEndian.Uint16(src[at+1:]))
			at += 3
		default:
			if at+5 > len(src) {
				return false, errSnappyCorrupt
			}
			length = 1 + uint32(tag>>2)
			ref = binary.LittleEndian.Uint32(src[at+1:])
			at += 5
		}
		if tag&3 != 0 && (ref == 0 || ref > d) {
			return false, errSnappyCorrupt
		}
		if uint64(length) > size-uint64(d) {
			return false, errSnappyCorrupt
		}
		s.start[n], s.ref[n] = d, ref
		n++
		d += length
	}
	s.start[n], s.n = d, n
	return true, nil
}

// element returns the index of the element that decodes output byte p.
func (s *snappyRange) element(p uint32) int {
	i, j := 0, s.n
	for j-i > 1 {
		m := int(uint(i+j) >> 1)
		if s.start[m] <= p {
			i = m
		} else {
			j = m
		}
	}
	return i
}

// write writes output bytes [lo, hi) into dst from the indexed elements,
// following copies back at most maxRangeDepth deep and spending at most
// *budget bytes in all; false when either runs out.
func (s *snappyRange) write(dst, src []byte, lo, hi uint32, depth int, budget *int) bool {
	if depth > maxRangeDepth {
		return false
	}
	*budget -= int(hi - lo)
	if *budget < 0 {
		return false
	}
	for i, p := s.element(lo), lo; p < hi; i++ {
		start, end := s.start[i], min(s.start[i+1], hi)
		out := dst[p-lo : end-lo]
		ref := s.ref[i]
		switch {
		case ref&litRef != 0:
			copy(out, src[ref&^litRef+p-start:])
		case end-ref <= start:
			// The bytes repeated lie wholly before this element.
			if !s.write(out, src, p-ref, end-ref, depth+1, budget) {
				return false
			}
		default:
			// A run: the element repeats the ref bytes before it, and
			// ref < length <= 64.
			period := s.period[depth][:ref]
			if !s.write(period, src, start-ref, start, depth+1, budget) {
				return false
			}
			for q := p; q < end; q++ {
				out[q-p] = period[(q-start)%ref]
			}
		}
		p = end
	}
	return true
}
