package wal

import (
	"errors"
	"fmt"
	"io"

	"github.com/godbbench/godbbench/internal/record"
)

// ErrCorruption is wrapped by every error that reports undecodable log bytes.
var ErrCorruption = errors.New("wal: corruption")

// Reader decodes the records of a log held in memory: internal/record's
// reader over legacy chunks, which decompresses the records of a
// compressed log.
type Reader struct {
	*record.Reader
	out []byte // a decompressed record, reused

	// firstLost is set when the log's first chunk did not decode: whether
	// the log was compressed is then unknown, and a record is taken as
	// compressed when it opens with zstd's frame magic.
	firstLost bool
}

// NewReader returns a Reader over the complete contents of a log file,
// whose corruption errors wrap ErrCorruption.
func NewReader(data []byte) *Reader {
	r := record.NewReader(data)
	r.SetCorruptionError(ErrCorruption)
	return &Reader{Reader: r}
}

// Reset makes r read data from its start, keeping its buffers.
func (r *Reader) Reset(data []byte) {
	r.Reader.Reset(data)
	r.firstLost = false
}

// Next returns the next record, decompressed in a compressed log. The
// slice is valid until the next call. Errors and the end of the log are as
// internal/record's Reader.Next reports them; a compressed record whose
// zstd frame does not decode, or a log compressed by an algorithm other
// than zstd, is corruption at the record's offset.
func (r *Reader) Next() ([]byte, error) {
	rec, err := r.Reader.Next()
	if err != nil {
		if r.CorruptionOffset() == 0 && err != io.EOF {
			if _, ok := r.Compression(); !ok {
				r.firstLost = true
			}
		}
		return rec, err
	}
	value, compressed := r.Compression()
	switch {
	case compressed && value != ZSTD:
		return nil, r.Reject(fmt.Sprintf("WAL compression type %d not supported (only zstd, %d)", value, ZSTD))
	case !compressed && !(r.firstLost && len(rec) >= len(zstdMagic) && [4]byte(rec[:4]) == zstdMagic):
		return rec, nil
	}
	dec, err := zstdDecoder()
	if err != nil {
		return nil, err
	}
	r.out, err = decompress(dec, rec, r.out)
	if err != nil {
		return nil, r.Reject(err.Error())
	}
	return r.out, nil
}
