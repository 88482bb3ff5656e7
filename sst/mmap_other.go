//go:build !unix

package sst

import (
	"errors"
	"os"
)

func mmapFile(f *os.File, size int64) ([]byte, error) {
	return nil, errors.New("mmap is not supported on this platform")
}

func munmapFile(b []byte) error { return nil }
