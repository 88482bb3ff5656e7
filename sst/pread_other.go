//go:build !unix

package sst

import "os"

// fileReaderAt is os.File's own ReadAt where pread(2) is not at hand.
type fileReaderAt struct{ *os.File }

func newFileReaderAt(f *os.File) *fileReaderAt { return &fileReaderAt{f} }

func (r *fileReaderAt) close() {}
