//go:build linux

package lsm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// WAL writes through a shared mapping (--mmap_write, RocksDB's
// allow_mmap_writes). A write to the WAL normally costs a write(2) per
// commit group: on the build machine ~0.45 µs of a 2.5 µs fillrandom
// operation (pprof, 1M keys, default shape). With --mmap_write the records
// are copied into a MAP_SHARED mapping of the file instead. A store to a
// shared file mapping is in the page cache as soon as it is made, so the
// data survives the process exactly as after write(2) (RocksDB's guarantee
// without sync), and Sync is msync + fdatasync, as with RocksDB's
// PosixMmapFile.
//
// The file grows by an extent at a time (walExtent: 1 MiB for a memtable
// of 2 MiB or more, less for smaller ones, so that a small write buffer's
// WALs do not each take 1 MiB of disk): fallocate first, so that running
// out of space is an error from Write and never a SIGBUS on a store, then
// a mapping of the new extent with MAP_POPULATE (one call instead of a page
// fault per 4 KiB). After the first extent, a goroutine makes each extent
// before the writes reach it and unmaps the ones they have filled
// (walmmap_ahead_linux.go), so the writer itself makes no system call. An
// extent is unmapped as soon as the writes have filled it: its pages stay
// in the page cache, dirty until written back (or until the next Sync's
// fdatasync), but leave the process's resident set, so a WAL of any length
// keeps at most three extents mapped: the one being written, the next one
// made ahead, and a filled one waiting to be unmapped. Close unmaps and
// truncates the file to what was written. A process killed before Close
// leaves the file at its allocated size with a zero tail, which the WAL
// reader takes for the end of the log (wal.Reader: "a torn or
// preallocated tail"). A file system without fallocate gets the write(2)
// path.

// mmapLog is a WritableFile that writes through mappings of f.
type mmapLog struct {
	f       *os.File
	extent  int64    // bytes per extent
	extents [][]byte // mappings of consecutive extent-sized pieces of f; nil once filled and unmapped
	size    int64    // bytes written
	synced  int64    // bytes covered by the last Sync
	err     error    // sticky
	ahead   *extentMaker
}

// newMmapLog returns a WritableFile writing f, an empty file, through
// mappings of extent bytes each (a multiple of the page size); when the
// file system cannot preallocate it returns f itself.
func newMmapLog(f *os.File, extent int64) (WritableFile, error) {
	m := &mmapLog{f: f, extent: extent}
	if err := m.grow(); err != nil {
		if errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS) {
			return f, nil
		}
		return nil, err
	}
	return m, nil
}

// grow appends the next extent: the first one mapped here, each later
// one from the extent maker, started with the second.
func (m *mmapLog) grow() error {
	if len(m.extents) == 0 {
		b, err := mapExtentFn(m.f, 0, m.extent)
		if err != nil {
			return err
		}
		m.extents = append(m.extents, b)
		return nil
	}
	if m.ahead == nil {
		m.ahead = startExtentMaker(m.f, int64(len(m.extents))*m.extent, m.extent)
	}
	b, err := m.ahead.take()
	if err != nil {
		return err
	}
	m.extents = append(m.extents, b)
	return nil
}

// mapExtent allocates extent bytes of f at off and maps them with every
// page resident.
func mapExtent(f *os.File, off, extent int64) ([]byte, error) {
	if err := syscall.Fallocate(int(f.Fd()), 0, off, extent); err != nil {
		return nil, fmt.Errorf("fallocate WAL: %w", err)
	}
	b, err := syscall.Mmap(int(f.Fd()), off, int(extent),
		syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	if err != nil {
		return nil, fmt.Errorf("mmap WAL: %w", err)
	}
	return b, nil
}

// Write copies p into the mappings. The file first grows until at least
// one byte past p stays unwritten: a copy that a crash stops is then always
// followed by zeros, which is how the WAL reader tells it from corruption.
// The bytes are stored in ascending order (copyInOrder), so a kill leaves
// a prefix of p.
func (m *mmapLog) Write(p []byte) (int, error) {
	if m.err != nil {
		return 0, m.err
	}
	for int64(len(m.extents))*m.extent <= m.size+int64(len(p)) {
		if err := m.grow(); err != nil {
			m.err = err
			return 0, err
		}
	}
	n := 0
	for len(p) > 0 {
		i := m.size / m.extent
		c := copyInOrder(m.extents[i][m.size%m.extent:], p)
		p = p[c:]
		n += c
		m.size += int64(c)
		if m.size%m.extent == 0 {
			m.release(int(i))
		}
	}
	return n, nil
}

// copyInOrder copies min(len(dst), len(src)) bytes from src to dst, each
// 8-byte word stored after the ones before it, and returns the count.
//
// Why not copy: the runtime's memmove is free to store in any order, and
// on amd64 with AVX a copy over 256 bytes stores the body first and its
// first 32 and last 128 bytes last. A SIGKILL inside such a copy into the
// WAL's mapping (a commit group of several writers) left the group's first
// chunk header zero with chunks after it, which the reader must call
// corruption, not a torn tail: the default recovery mode then refused to
// open the DB. Stores in program order make every stopped copy a prefix,
// followed by zeros. At 130-byte records this costs a few nanoseconds.
func copyInOrder(dst, src []byte) int {
	n := min(len(dst), len(src))
	dst, src = dst[:n], src[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		binary.LittleEndian.PutUint64(dst[i:i+8], binary.LittleEndian.Uint64(src[i:i+8]))
	}
	for ; i < n; i++ {
		dst[i] = src[i]
	}
	return n
}

// release hands extent i, which the writes have filled, to the extent
// maker to unmap. There is one: Write maps the extent after the one it
// fills before it copies, which starts the maker.
func (m *mmapLog) release(i int) {
	m.ahead.retire(m.extents[i])
	m.extents[i] = nil
}

// Sync makes what was written since the last Sync durable: msync of the
// pages it touched that are still mapped, then fdatasync, which also
// writes the pages of the extents unmapped since (munmap hands their dirty
// state to the page cache).
func (m *mmapLog) Sync() error {
	if m.err != nil {
		return m.err
	}
	const page = 4096
	for start := m.synced &^ (page - 1); start < m.size; {
		e := m.extents[start/m.extent]
		lo := start % m.extent
		if e == nil {
			start += m.extent - lo
			continue
		}
		hi := min(int64(len(e)), lo+m.size-start)
		if _, _, errno := syscall.Syscall(syscall.SYS_MSYNC, uintptr(unsafe.Pointer(&e[lo])),
			uintptr(hi-lo), syscall.MS_SYNC); errno != 0 {
			m.err = fmt.Errorf("msync WAL: %w", errno)
			return m.err
		}
		start += hi - lo
	}
	if err := syscall.Fdatasync(int(m.f.Fd())); err != nil {
		m.err = fmt.Errorf("fdatasync WAL: %w", err)
		return m.err
	}
	m.synced = m.size
	return nil
}

// Close unmaps the file, truncates it to the bytes written and closes it.
func (m *mmapLog) Close() error {
	var err error
	if m.ahead != nil {
		err = m.ahead.stop()
		m.ahead = nil
	}
	for _, e := range m.extents {
		if e == nil {
			continue
		}
		if uerr := syscall.Munmap(e); uerr != nil && err == nil {
			err = fmt.Errorf("munmap WAL: %w", uerr)
		}
	}
	m.extents = nil
	if terr := m.f.Truncate(m.size); terr != nil && err == nil {
		err = terr
	}
	if cerr := m.f.Close(); cerr != nil && err == nil {
		err = cerr
	}
	if m.err == nil {
		m.err = errors.New("lsm: WAL closed")
	}
	return err
}
