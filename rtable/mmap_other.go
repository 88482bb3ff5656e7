//go:build !unix

package rtable

import (
	"io"
	"os"
)

// mapFile reads the whole file where there is no mmap.
func mapFile(f *os.File, size int64) (data []byte, mapped bool, err error) {
	data = make([]byte, size)
	_, err = io.ReadFull(io.NewSectionReader(f, 0, size), data)
	return data, false, err
}

func unmapFile([]byte) error { return nil }
