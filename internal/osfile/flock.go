package osfile

import (
	"errors"
	"os"
	"syscall"
)

// ErrWouldBlock is Flock's error when another holder has a conflicting lock.
var ErrWouldBlock = errors.New("osfile: lock held by another")

// Flock takes a non-blocking flock(2) on f: exclusive, or shared when
// exclusive is false. The lock lasts until f is closed.
func Flock(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrWouldBlock
	}
	return err
}
