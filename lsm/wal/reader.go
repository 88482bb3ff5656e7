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
	data    []byte
	off     int    // offset of the next fragment
	rec     []byte // reassembly buffer for fragmented records
	recOff  int64  // file offset where the last record returned started
	torn    bool   // the log ended in a torn tail
	tornOff int64  // where the torn tail starts
	resumed bool   // a fragment that decodes follows the last corruption
	damage  int64  // offset of the last corruption
}

// NewReader returns a Reader over the complete contents of a log file.
func NewReader(data []byte) *Reader { return &Reader{data: data} }

// Offset is the file offset at which the last record returned by Next began.
func (r *Reader) Offset() int64 { return r.recOff }

// Torn reports, once Next has returned io.EOF, whether the log ended in a
// torn tail, and the offset where that tail starts.
func (r *Reader) Torn() (bool, int64) { return r.torn, r.tornOff }

// DataAfterCorruption reports, after Next returned a corruption error,
// whether a fragment that decodes (its checksum matches) lies after the
// damage: the damage is then in the middle of the log, not at its tail.
// The next call to Next resumes at that fragment.
func (r *Reader) DataAfterCorruption() bool { return r.resumed }

// CorruptionOffset is the file offset of the damage the last corruption
// error reported.
func (r *Reader) CorruptionOffset() int64 { return r.damage }

// corrupt reports damage at off and moves the reader to the first fragment
// at or after resume that decodes, or to the end of the log.
func (r *Reader) corrupt(off, resume int, format string, args ...any) error {
	next := r.findFragment(resume)
	r.resumed = next < len(r.data)
	r.damage = int64(off)
	r.off = next
	r.rec = r.rec[:0]
	return fmt.Errorf("%w at offset %d: %s", ErrCorruption, off, fmt.Sprintf(format, args...))
}

// tornTail ends the log at off.
func (r *Reader) tornTail(off int) error {
	r.torn, r.tornOff = true, int64(off)
	r.off = len(r.data)
	return io.EOF
}

// fragmentAt reports whether a fragment that decodes (known type, inside
// its block and the data, checksum matching) starts at p.
func (r *Reader) fragmentAt(p int) bool {
	blockLeft := BlockSize - p%BlockSize
	if blockLeft < HeaderSize || len(r.data)-p < HeaderSize {
		return false
	}
	h := r.data[p : p+HeaderSize]
	n := int(binary.LittleEndian.Uint16(h[4:6]))
	if typ := h[6]; typ < typeFull || typ > typeLast || HeaderSize+n > blockLeft || p+HeaderSize+n > len(r.data) {
		return false
	}
	c := crc32.Update(0, castagnoli, h[6:7])
	return maskCRC(crc32.Update(c, castagnoli, r.data[p+HeaderSize:p+HeaderSize+n])) == binary.LittleEndian.Uint32(h[0:4])
}

// findFragment returns the offset of the first fragment at or after from
// that decodes, or len(data). It tries each block's start first, where a
// writer always begins a fragment, then every offset of that block.
func (r *Reader) findFragment(from int) int {
	for p := from; p < len(r.data); {
		blockEnd := (p/BlockSize + 1) * BlockSize
		if p%BlockSize == 0 && r.fragmentAt(p) {
			return p
		}
		for ; p < blockEnd && p < len(r.data); p++ {
			if r.fragmentAt(p) {
				return p
			}
		}
	}
	return len(r.data)
}

// Next returns the next record. The slice is valid until the next call. It
// returns io.EOF at the end of the log, including a torn tail (see Torn).
// After an error wrapping ErrCorruption, calling Next again skips to the
// next fragment that decodes (see DataAfterCorruption).
func (r *Reader) Next() ([]byte, error) {
	r.rec = r.rec[:0]
	r.resumed = false
	inRecord := false
	recStart := 0
	for {
		blockLeft := BlockSize - r.off%BlockSize
		if blockLeft < HeaderSize {
			r.off += blockLeft // zero trailer
			continue
		}
		if r.off >= len(r.data) {
			if inRecord {
				return nil, r.tornTail(recStart) // a record missing its LAST
			}
			return nil, io.EOF
		}
		if len(r.data)-r.off < HeaderSize {
			return nil, r.tornTail(r.off) // torn header
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
				if inRecord {
					return nil, r.tornTail(recStart)
				}
				return nil, io.EOF
			}
			return nil, r.corrupt(start, start+HeaderSize, "zero header followed by data")
		}
		if HeaderSize+n > blockLeft {
			return nil, r.corrupt(start, start+1, "bad record length %d: past the end of its block", n)
		}
		if start+HeaderSize+n > len(r.data) {
			// A payload cut short by the end of the file is a torn tail, unless
			// a fragment that decodes follows the header: then the length is
			// damaged and the records after it were written.
			if r.findFragment(start+HeaderSize) < len(r.data) {
				return nil, r.corrupt(start, start+HeaderSize, "bad record length %d: past the end of the log", n)
			}
			if inRecord {
				return nil, r.tornTail(recStart)
			}
			return nil, r.tornTail(start)
		}
		payload := r.data[start+HeaderSize : start+HeaderSize+n]
		c := crc32.Update(0, castagnoli, h[6:7])
		if maskCRC(crc32.Update(c, castagnoli, payload)) != stored {
			if rest := r.data[start+HeaderSize+n:]; len(rest) > 0 && allZero(rest) {
				// The last fragment of the file, followed by zeros: a copy
				// into a mapped, preallocated log that a crash stopped.
				if inRecord {
					return nil, r.tornTail(recStart)
				}
				return nil, r.tornTail(start)
			}
			return nil, r.corrupt(start, start+1, "checksum mismatch")
		}
		r.off = start + HeaderSize + n
		switch typ {
		case typeFull:
			if inRecord {
				// Resume at this record: it decodes on its own.
				return nil, r.corrupt(start, start, "FULL fragment inside a fragmented record")
			}
			r.recOff = int64(start)
			return payload, nil
		case typeFirst:
			if inRecord {
				return nil, r.corrupt(start, start, "FIRST fragment inside a fragmented record")
			}
			inRecord = true
			recStart = start
			r.rec = append(r.rec, payload...)
		case typeMiddle, typeLast:
			if !inRecord {
				return nil, r.corrupt(start, r.off, "fragment type %d without a FIRST", typ)
			}
			r.rec = append(r.rec, payload...)
			if typ == typeLast {
				r.recOff = int64(recStart)
				return r.rec, nil
			}
		default:
			return nil, r.corrupt(start, r.off, "unknown fragment type %d", typ)
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
