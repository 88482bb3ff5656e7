package osfile

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// ErrWouldBlock is Flock's error when another holder has a conflicting lock.
var ErrWouldBlock = errors.New("osfile: lock held by another")

// Flock takes a non-blocking lock on the whole of f, exclusive or shared
// when exclusive is false, in two kinds at once, and holds both until f is
// closed:
//
//   - flock(2), which conflicts with every other open file description's
//     flock, in this process or another;
//   - an open-file-description record lock (fcntl F_OFD_SETLK over the whole
//     file), which conflicts with the POSIX record locks (fcntl F_SETLK)
//     that RocksDB's and Pebble's LockFile take, even within one process, so
//     a DB this package locked is seen as held by those engines and the
//     other way round (flock and POSIX locks do not see each other on
//     Linux). Unlike a POSIX lock, it is not dropped when the process
//     closes another descriptor of the same file.
//
// A file system without record locks (ENOLCK, EINVAL, EOPNOTSUPP) keeps the
// flock alone.
func Flock(f *os.File, exclusive bool) error {
	how, kind := syscall.LOCK_SH, int16(unix.F_RDLCK)
	if exclusive {
		how, kind = syscall.LOCK_EX, unix.F_WRLCK
	}
	err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrWouldBlock
	}
	if err != nil {
		return err
	}
	lk := unix.Flock_t{Type: kind, Whence: 0, Start: 0, Len: 0}
	err = unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
	switch {
	case err == nil, errors.Is(err, unix.ENOLCK), errors.Is(err, unix.EINVAL), errors.Is(err, unix.EOPNOTSUPP):
		return nil
	case errors.Is(err, unix.EAGAIN), errors.Is(err, unix.EACCES):
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return ErrWouldBlock
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return err
}
