package wal

import (
	"encoding/binary"
	"hash/crc32"
	"io"

	"github.com/godbbench/godbbench/internal/record"
)

// BlockSize is the size of a log block.
const BlockSize = record.BlockSize

// HeaderSize is the size of a fragment header.
const HeaderSize = record.LegacyHeaderSize

// Fragment types.
const (
	typeFull   = 1
	typeFirst  = 2
	typeMiddle = 3
	typeLast   = 4
)

// Writer appends records to a log. Records are encoded into an in-memory
// buffer by AddRecord and reach the file on Flush, so a group of records costs
// one write system call (group commit). A Writer is not safe for concurrent
// use.
type Writer struct {
	w        io.Writer
	buf      []byte
	blockOff int   // bytes used in the current block
	written  int64 // bytes handed to w
	err      error // sticky write error

	compressor *Compressor // nil: records are stored as given
	frame      []byte      // the last record's zstd frame, reused
}

// NewWriter returns a Writer appending to w, which must be positioned at the
// start of an empty file.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, buf: make([]byte, 0, 64<<10)}
}

// AddRecord encodes p as one record into the pending buffer, compressed
// first in a compressed log.
func (w *Writer) AddRecord(p []byte) {
	p = w.compress(p)
	first := true
	for {
		left := BlockSize - w.blockOff
		if left < HeaderSize {
			// Pad the block tail with zeros.
			for i := 0; i < left; i++ {
				w.buf = append(w.buf, 0)
			}
			w.blockOff = 0
			left = BlockSize
		}
		avail := left - HeaderSize
		n := len(p)
		last := true
		if n > avail {
			n = avail
			last = false
		}
		var typ byte
		switch {
		case first && last:
			typ = typeFull
		case first:
			typ = typeFirst
		case last:
			typ = typeLast
		default:
			typ = typeMiddle
		}
		w.addChunk(typ, p[:n])
		p = p[n:]
		first = false
		if last {
			return
		}
	}
}

// addChunk encodes one chunk of type typ holding p, which fits in the
// current block, into the pending buffer.
func (w *Writer) addChunk(typ byte, p []byte) {
	// Encode the header in place in buf, so nothing escapes to the heap.
	h := len(w.buf)
	w.buf = append(w.buf, 0, 0, 0, 0, 0, 0, typ)
	w.buf = append(w.buf, p...)
	c := crc32.Checksum(w.buf[h+6:], record.Castagnoli)
	binary.LittleEndian.PutUint32(w.buf[h:h+4], record.MaskCRC(c))
	binary.LittleEndian.PutUint16(w.buf[h+4:h+6], uint16(len(p)))
	w.blockOff += HeaderSize + len(p)
}

// Pending is the number of encoded bytes not yet flushed.
func (w *Writer) Pending() int { return len(w.buf) }

// Flush writes the pending records with one Write call.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if len(w.buf) == 0 {
		return nil
	}
	n, err := w.w.Write(w.buf)
	w.written += int64(n)
	if err == nil && n != len(w.buf) {
		err = io.ErrShortWrite
	}
	w.buf = w.buf[:0]
	if err != nil {
		w.err = err
	}
	return err
}

// Size is the number of bytes written to the file so far.
func (w *Writer) Size() int64 { return w.written }
