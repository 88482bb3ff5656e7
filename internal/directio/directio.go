// Package directio reads and writes files with O_DIRECT, bypassing the
// page cache, as RocksDB's use_direct_reads and
// use_direct_io_for_flush_and_compaction do.
//
// Contract: every read and write the package makes of a file it opened
// starts at a multiple of Alignment, is a multiple of Alignment long and
// goes through a buffer whose address is a multiple of Alignment, which is
// what O_DIRECT asks of the caller. ReaderAt turns any read into such a
// read and copies the asked bytes out; Writer gathers writes into an
// aligned buffer, writes it in whole aligned blocks, pads the last block
// with zeros and truncates the file to the bytes written. Where the
// system has no O_DIRECT, Open and Create fail with ErrUnsupported.
package directio

import (
	"errors"
	"unsafe"
)

// Alignment is the offset, length and buffer address alignment of every
// direct read and write: 4 KiB, the logical block size of today's disks
// and RocksDB's default (kDefaultPageSize).
const Alignment = 4096

// ErrUnsupported is returned where the system has no direct I/O.
var ErrUnsupported = errors.New("direct I/O is not supported on this system")

// AlignedBuffer returns a zeroed buffer of n bytes whose first byte sits at
// a multiple of Alignment.
func AlignedBuffer(n int) []byte {
	b := make([]byte, n+Alignment)
	skip := 0
	if r := int(uintptr(unsafe.Pointer(unsafe.SliceData(b))) % Alignment); r != 0 {
		skip = Alignment - r
	}
	return b[skip : skip+n : skip+n]
}

// alignDown and alignUp round to multiples of Alignment.
func alignDown(n int64) int64 { return n &^ (Alignment - 1) }
func alignUp(n int64) int64   { return alignDown(n + Alignment - 1) }
