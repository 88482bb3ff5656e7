package directio

import (
	"os"

	"golang.org/x/sys/unix"
)

// Open opens name for direct reads.
func Open(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|unix.O_DIRECT, 0)
}

// Create creates (or truncates) name for direct writes.
func Create(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC|unix.O_DIRECT, 0o644)
}

// IsDirect reports whether f was opened with O_DIRECT (fcntl F_GETFL).
func IsDirect(f *os.File) (bool, error) {
	flags, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
	if err != nil {
		return false, err
	}
	return flags&unix.O_DIRECT != 0, nil
}
