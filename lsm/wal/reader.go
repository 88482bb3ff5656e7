package wal

import (
	"errors"

	"github.com/godbbench/godbbench/internal/record"
)

// ErrCorruption is wrapped by every error that reports undecodable log bytes.
var ErrCorruption = errors.New("wal: corruption")

// Reader decodes the records of a log held in memory: internal/record's
// reader, over legacy chunks only.
type Reader = record.Reader

// NewReader returns a Reader over the complete contents of a log file,
// whose corruption errors wrap ErrCorruption.
func NewReader(data []byte) *Reader {
	r := record.NewReader(data)
	r.SetCorruptionError(ErrCorruption)
	return r
}
