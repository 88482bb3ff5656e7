package directio

import (
	"fmt"
	"os"
)

// Writer appends to a file made by Create: it gathers the bytes written in
// an aligned buffer and writes the buffer at its aligned file offset when
// it fills. Flush writes what is gathered, padded with zeros to a whole
// block, and truncates the file to the bytes written; the partial block
// stays gathered, so writes after a Flush go on where the data ended.
type Writer struct {
	f    *os.File
	buf  []byte // aligned, len a multiple of Alignment
	n    int    // bytes gathered in buf
	base int64  // file offset of buf[0], aligned
}

// NewWriter returns a Writer of f gathering bufSize bytes (rounded up to
// a multiple of Alignment) between writes.
func NewWriter(f *os.File, bufSize int) *Writer {
	return &Writer{f: f, buf: AlignedBuffer(int(alignUp(int64(max(bufSize, Alignment)))))}
}

// Size is the number of bytes written so far.
func (w *Writer) Size() int64 { return w.base + int64(w.n) }

// Write gathers p, writing each full buffer.
func (w *Writer) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		c := copy(w.buf[w.n:], p)
		w.n += c
		written += c
		p = p[c:]
		if w.n == len(w.buf) {
			if _, err := w.f.WriteAt(w.buf, w.base); err != nil {
				return written, err
			}
			w.base += int64(len(w.buf))
			w.n = 0
		}
	}
	return written, nil
}

// Flush writes the gathered bytes, the last block padded with zeros, and
// truncates the file to Size. The whole blocks written leave the buffer;
// the partial last block stays in it.
func (w *Writer) Flush() error {
	if w.n == 0 {
		return nil
	}
	padded := int(alignUp(int64(w.n)))
	clear(w.buf[w.n:padded])
	if _, err := w.f.WriteAt(w.buf[:padded], w.base); err != nil {
		return err
	}
	size := w.Size()
	if err := w.f.Truncate(size); err != nil {
		return fmt.Errorf("truncate %s to %d: %w", w.f.Name(), size, err)
	}
	if whole := int(alignDown(int64(w.n))); whole > 0 {
		copy(w.buf, w.buf[whole:w.n])
		w.n -= whole
		w.base += int64(whole)
	}
	return nil
}

// Sync flushes and syncs the file (fsync).
func (w *Writer) Sync() error {
	if err := w.Flush(); err != nil {
		return err
	}
	return w.f.Sync()
}

// Close flushes and closes the file.
func (w *Writer) Close() error {
	err := w.Flush()
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	return err
}
