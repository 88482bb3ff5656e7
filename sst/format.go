package sst

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// FormatVersion is the table format version this package writes by
// default. Open reads it, version 1 (whose blocks carry the plain CRC32C)
// and version 3 (a partitioned index, partitioned.go) and rejects any other.
const FormatVersion uint32 = 2

// formatVersion1 is the first format: its footer has no checksum type.
const formatVersion1 uint32 = 1

// formatVersionPartitioned is the version of a table whose index is
// partitioned (partitioned.go): version 2 with a two-level index, written
// when WriterOptions.PartitionIndex asks for it.
const formatVersionPartitioned uint32 = 3

// tableMagic ends every table: the bytes "gdbbsst1" read as little endian.
const tableMagic uint64 = 0x3174737362626467

const (
	// footerLen is the fixed size of the footer (see the package doc).
	footerLen = 52
	// blockTrailerLen is the compression byte plus the checksum that
	// follow every block.
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
	// Checksum checks every block of the table: the type byte of a
	// version 2 or 3 footer, checksumCRC32CUnmasked for version 1.
	Checksum ChecksumType
	// PartitionedFilter says the filter handle locates a top-level filter
	// index (byte 38 of a version 3 footer).
	PartitionedFilter bool
}

func (f *footer) encode(dst []byte) []byte {
	var b [footerLen]byte
	binary.LittleEndian.PutUint64(b[0:], f.Index.Offset)
	binary.LittleEndian.PutUint32(b[8:], f.Index.Len)
	binary.LittleEndian.PutUint64(b[12:], f.Filter.Offset)
	binary.LittleEndian.PutUint32(b[20:], f.Filter.Len)
	binary.LittleEndian.PutUint64(b[24:], f.Props.Offset)
	binary.LittleEndian.PutUint32(b[32:], f.Props.Len)
	if f.Version == formatVersion1 {
		binary.LittleEndian.PutUint32(b[36:], formatVersion1)
	} else {
		b[36] = byte(f.Version)
		b[37] = f.Checksum.RocksDBNumber()
		if f.PartitionedFilter {
			b[38] = 1
		}
	}
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
	switch v := binary.LittleEndian.Uint32(b[36:]); {
	case v == formatVersion1:
		f.Version, f.Checksum = v, checksumCRC32CUnmasked
	case (b[36] == byte(FormatVersion) && b[38] == 0 || b[36] == byte(formatVersionPartitioned) && b[38] <= 1) && b[39] == 0:
		f.Version = uint32(b[36])
		f.PartitionedFilter = b[38] == 1
		n := int(b[37])
		if n >= len(rocksDBChecksumNumbers) {
			return f, corruptf(name, off+37, "Corrupt or unsupported checksum type: %d", n)
		}
		f.Checksum = rocksDBChecksumNumbers[n]
	default:
		return f, corruptf(name, off+36, "Corrupt or unsupported format_version: %d (this build reads %d, %d and %d)", v, formatVersion1, FormatVersion, formatVersionPartitioned)
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
