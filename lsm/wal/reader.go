package wal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// ErrCorruption is wrapped by every error that reports undecodable log bytes.
var ErrCorruption = errors.New("wal: corruption")

// Reader decodes the records of a log held in memory.
type Reader struct {
	data   []byte
	off    int    // offset of the next fragment
	rec    []byte // reassembly buffer for fragmented records
	recOff int64  // file offset where the last record returned started
}

// NewReader returns a Reader over the complete contents of a log file.
func NewReader(data []byte) *Reader { return &Reader{data: data} }

// Offset is the file offset at which the last record returned by Next began.
func (r *Reader) Offset() int64 { return r.recOff }

func (r *Reader) corrupt(off int, format string, args ...any) error {
	return fmt.Errorf("%w at offset %d: %s", ErrCorruption, off, fmt.Sprintf(format, args...))
}

// Next returns the next record. The slice is valid until the next call. It
// returns io.EOF at the end of the log, including a torn tail.
func (r *Reader) Next() ([]byte, error) {
	r.rec = r.rec[:0]
	inRecord := false
	for {
		blockLeft := BlockSize - r.off%BlockSize
		if blockLeft < HeaderSize {
			r.off += blockLeft // zero trailer
			continue
		}
		if r.off >= len(r.data) {
			return nil, io.EOF // clean end, or torn inside a fragmented record
		}
		if len(r.data)-r.off < HeaderSize {
			return nil, io.EOF // torn header
		}
		start := r.off
		h := r.data[start : start+HeaderSize]
		stored := binary.LittleEndian.Uint32(h[0:4])
		n := int(binary.LittleEndian.Uint16(h[4:6]))
		typ := h[6]
		if typ == typeZero && n == 0 && stored == 0 {
			// Zeros where a header should be: only a torn or preallocated tail
			// looks like this; a writer never emits it.
			if allZero(r.data[start:]) {
				return nil, io.EOF
			}
			return nil, r.corrupt(start, "zero header followed by data")
		}
		if HeaderSize+n > blockLeft {
			return nil, r.corrupt(start, "fragment length %d crosses its block", n)
		}
		if start+HeaderSize+n > len(r.data) {
			return nil, io.EOF // torn payload
		}
		payload := r.data[start+HeaderSize : start+HeaderSize+n]
		c := crc32.Update(0, castagnoli, h[6:7])
		if maskCRC(crc32.Update(c, castagnoli, payload)) != stored {
			if rest := r.data[start+HeaderSize+n:]; len(rest) > 0 && allZero(rest) {
				// The last fragment of the file, followed by zeros: a copy
				// into a mapped, preallocated log that a crash stopped.
				return nil, io.EOF
			}
			return nil, r.corrupt(start, "checksum mismatch")
		}
		r.off = start + HeaderSize + n
		switch typ {
		case typeFull:
			if inRecord {
				return nil, r.corrupt(start, "FULL fragment inside a fragmented record")
			}
			r.recOff = int64(start)
			return payload, nil
		case typeFirst:
			if inRecord {
				return nil, r.corrupt(start, "FIRST fragment inside a fragmented record")
			}
			inRecord = true
			r.recOff = int64(start)
			r.rec = append(r.rec, payload...)
		case typeMiddle, typeLast:
			if !inRecord {
				return nil, r.corrupt(start, "fragment type %d without a FIRST", typ)
			}
			r.rec = append(r.rec, payload...)
			if typ == typeLast {
				return r.rec, nil
			}
		default:
			return nil, r.corrupt(start, "unknown fragment type %d", typ)
		}
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
