package rtable

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/godbbench/godbbench/sst"
)

// FormatVersion is the newest table format version this package writes
// and reads. Version 1 keeps one kind bit per entry in the trailers column
// (Delete and Set); version 2 keeps two (Delete, Set and Merge); version 3
// keeps two and adds to the meta section what the filter holds (prefixes,
// whole keys) and a range deletion section. A Writer writes version 3
// only for a table with range tombstones or a prefix filter, version 2
// only for one whose trailers column holds a merge operand, and version 1
// otherwise, so a table of an older version's features has that version's
// bytes. Open reads all three and rejects any other.
const FormatVersion uint32 = 3

// versionExtended is the first version whose meta section carries the
// filter contents and the range deletion section.
const versionExtended uint32 = 3

// kindBits returns how many low bits of a trailers column entry hold the
// kind in format version v.
func kindBits(v uint32) uint64 {
	if v >= 2 {
		return 2
	}
	return 1
}

// tableMagic ends every table: the bytes "gdbbrtb1" read as little endian.
const tableMagic uint64 = 0x3162747262626467

const (
	// footerLen is the size of the footer (see the package doc).
	footerLen = 32
	// groupLen is the number of entries in a value group: one checksum and,
	// for values of varying length, one absolute offset per group.
	groupLen = 64
	// groupShift is log2(groupLen).
	groupShift = 6
	// packPad is the zero bytes after every packed column, so that entry
	// i of any width is read with one 8-byte load.
	packPad = 7
	// maxMetaLen bounds the meta section's length read from a footer.
	maxMetaLen = 1 << 20
	// SplineError is the largest distance, in entries, between a key's
	// position and the position the spline predicts for it.
	SplineError = 32
)

// ErrCorruption is wrapped by every error that reports damaged or malformed
// table bytes. It wraps sst.ErrCorruption, so code that handles the block
// format's corruption errors handles these too.
var ErrCorruption = fmt.Errorf("rtable: %w", sst.ErrCorruption)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

func checksum(b []byte) uint32 { return crc32.Checksum(b, crcTable) }

// corruptf builds an error wrapping ErrCorruption naming the file and offset.
func corruptf(name string, off uint64, format string, args ...any) error {
	return fmt.Errorf("%w: %s at offset %d: %s", ErrCorruption, name, off, fmt.Sprintf(format, args...))
}

// footer is the decoded fixed-size tail of a table.
type footer struct {
	metaOffset uint64
	metaLen    uint32
	metaCRC    uint32
	version    uint32
}

func (f *footer) encode(dst []byte) []byte {
	var b [footerLen]byte
	binary.LittleEndian.PutUint64(b[0:], f.metaOffset)
	binary.LittleEndian.PutUint32(b[8:], f.metaLen)
	binary.LittleEndian.PutUint32(b[12:], f.metaCRC)
	binary.LittleEndian.PutUint32(b[16:], f.version)
	binary.LittleEndian.PutUint32(b[20:], checksum(b[:20]))
	binary.LittleEndian.PutUint64(b[24:], tableMagic)
	return append(dst, b[:]...)
}

// decodeFooter parses the footer at the end of data and checks that the
// meta section it points to lies inside data before the footer.
func decodeFooter(data []byte, name string) (footer, error) {
	if len(data) < footerLen {
		return footer{}, corruptf(name, 0, "file is %d bytes, shorter than the %d-byte footer", len(data), footerLen)
	}
	off := uint64(len(data) - footerLen)
	return decodeFooterAt(data[off:], off, name)
}

// decodeFooterAt parses footer bytes b found at offset off of the file and
// checks that the meta section it points to ends at the footer.
func decodeFooterAt(b []byte, off uint64, name string) (footer, error) {
	var f footer
	if m := binary.LittleEndian.Uint64(b[24:]); m != tableMagic {
		return f, corruptf(name, off+24, "Bad table magic number: expected %d, found %d", tableMagic, m)
	}
	if got, want := checksum(b[:20]), binary.LittleEndian.Uint32(b[20:]); got != want {
		return f, corruptf(name, off+20, "footer checksum mismatch: computed %#x, stored %#x", got, want)
	}
	f.metaOffset = binary.LittleEndian.Uint64(b[0:])
	f.metaLen = binary.LittleEndian.Uint32(b[8:])
	f.metaCRC = binary.LittleEndian.Uint32(b[12:])
	f.version = binary.LittleEndian.Uint32(b[16:])
	if f.version < 1 || f.version > FormatVersion {
		return f, corruptf(name, off+16, "Corrupt or unsupported format_version: %d (this build reads 1 to %d)", f.version, FormatVersion)
	}
	if f.metaLen > maxMetaLen || f.metaOffset > off || off-f.metaOffset != uint64(f.metaLen) {
		return f, corruptf(name, off, "meta section (%d, %d) does not end at the footer", f.metaOffset, f.metaLen)
	}
	return f, nil
}
