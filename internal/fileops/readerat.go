package fileops

import (
	"errors"
	"io"
)

// ReaderAt counts the reads made through an io.ReaderAt.
type ReaderAt struct {
	io.ReaderAt
	Counts *Counters
}

// ReadAt reads through the wrapped ReaderAt and counts the read: a short
// read at the end of the file (io.EOF) counts its bytes.
func (r ReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := r.ReaderAt.ReadAt(p, off)
	r.Counts.Read(n, err == nil || errors.Is(err, io.EOF))
	return n, err
}
