package sst

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// FormatVersion is the table format version this package writes. Open
// rejects any other version.
const FormatVersion uint32 = 1

// tableMagic ends every table: the bytes "gdbbsst1" read as little endian.
const tableMagic uint64 = 0x3174737362626467

const (
	// footerLen is the fixed size of the footer (see the package doc).
	footerLen = 52
	// blockTrailerLen is the compression byte plus the CRC32C that follow
	// every block.
	blockTrailerLen = 5
	// maxBlockLen bounds any block length read from a file, so corrupt
	// lengths cannot ask for absurd allocations.
	maxBlockLen = 1 << 30
)

// MaxKeyLen and MaxValueLen are the longest user key and value a table
// holds (a quarter of the largest block each, so an entry and its block
// framing always fit). A writer must refuse longer ones before it
// acknowledges them: the Writer fails on them.
const (
	MaxKeyLen   = maxBlockLen / 4
	MaxValueLen = maxBlockLen / 4
)

// ErrCorruption is wrapped by every error that reports damaged or malformed
// table bytes.
var ErrCorruption = errors.New("sst: corruption")

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// blockChecksum is the CRC32C of a block's stored bytes followed by its
// compression byte.
func blockChecksum(stored []byte, compression byte) uint32 {
	c := ^crc32.Update(0, crcTable, stored)
	// One table step for the trailing byte: passing a 1-byte slice to
	// crc32.Update would make it escape, one allocation per block read.
	c = crcTable[byte(c)^compression] ^ c>>8
	return ^c
}

// corruptf builds an error wrapping ErrCorruption naming the file and offset.
func corruptf(name string, off uint64, format string, args ...any) error {
	return fmt.Errorf("%w: %s at offset %d: %s", ErrCorruption, name, off, fmt.Sprintf(format, args...))
}

// handle locates a block in the file: Len excludes the 5-byte trailer.
type handle struct {
	Offset uint64
	Len    uint32
}

// footer is the decoded fixed-size tail of a table.
type footer struct {
	Index, Filter, Props handle
	Version              uint32
}

func (f *footer) encode(dst []byte) []byte {
	var b [footerLen]byte
	binary.LittleEndian.PutUint64(b[0:], f.Index.Offset)
	binary.LittleEndian.PutUint32(b[8:], f.Index.Len)
	binary.LittleEndian.PutUint64(b[12:], f.Filter.Offset)
	binary.LittleEndian.PutUint32(b[20:], f.Filter.Len)
	binary.LittleEndian.PutUint64(b[24:], f.Props.Offset)
	binary.LittleEndian.PutUint32(b[32:], f.Props.Len)
	binary.LittleEndian.PutUint32(b[36:], f.Version)
	binary.LittleEndian.PutUint32(b[40:], crc32.Checksum(b[:40], crcTable))
	binary.LittleEndian.PutUint64(b[44:], tableMagic)
	return append(dst, b[:]...)
}

// decodeFooter parses the last footerLen bytes of a table of the given size.
func decodeFooter(b []byte, size int64, name string) (footer, error) {
	var f footer
	off := uint64(size) - footerLen
	if len(b) != footerLen {
		return f, corruptf(name, off, "footer is %d bytes, want %d", len(b), footerLen)
	}
	if m := binary.LittleEndian.Uint64(b[44:]); m != tableMagic {
		return f, corruptf(name, off+44, "Bad table magic number: expected %d, found %d", tableMagic, m)
	}
	if got, want := crc32.Checksum(b[:40], crcTable), binary.LittleEndian.Uint32(b[40:]); got != want {
		return f, corruptf(name, off+40, "footer checksum %#x, stored %#x", got, want)
	}
	f.Index = handle{binary.LittleEndian.Uint64(b[0:]), binary.LittleEndian.Uint32(b[8:])}
	f.Filter = handle{binary.LittleEndian.Uint64(b[12:]), binary.LittleEndian.Uint32(b[20:])}
	f.Props = handle{binary.LittleEndian.Uint64(b[24:]), binary.LittleEndian.Uint32(b[32:])}
	f.Version = binary.LittleEndian.Uint32(b[36:])
	if f.Version != FormatVersion {
		return f, corruptf(name, off+36, "Corrupt or unsupported format_version: %d (this build reads %d)", f.Version, FormatVersion)
	}
	limit := uint64(size) - footerLen
	for i, h := range [3]handle{f.Index, f.Filter, f.Props} {
		if i == 1 && h == (handle{}) {
			continue // no filter
		}
		if h.Len > maxBlockLen || h.Offset > limit || limit-h.Offset < uint64(h.Len)+blockTrailerLen {
			return f, corruptf(name, off, "block handle (%d, %d) outside the file of %d bytes", h.Offset, h.Len, size)
		}
	}
	return f, nil
}
