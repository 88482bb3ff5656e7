//go:build unix

package rtable

import (
	"os"
	"syscall"
)

// mapFile maps size bytes of f read-only.
func mapFile(f *os.File, size int64) (data []byte, mapped bool, err error) {
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	return data, err == nil, err
}

func unmapFile(b []byte) error { return syscall.Munmap(b) }
