package rtable

import (
	"encoding/binary"
	"fmt"
	"io"
)

// HasMagic reports whether tail, the last MagicLen bytes of a file (or
// more), ends with this format's magic number. It tells a table of this
// format from one of another format sharing a directory, before either
// opens it.
func HasMagic(tail []byte) bool {
	return len(tail) >= MagicLen && binary.LittleEndian.Uint64(tail[len(tail)-MagicLen:]) == tableMagic
}

// MagicLen is the length of the magic number that ends every table.
const MagicLen = 8

// CheckFooter reads the footer of a table of size bytes with one read and
// checks it as Open does: the magic number, the footer checksum, the
// format version, and that the meta section it points to ends at the
// footer. It lets a caller that only needs to know a table is whole check
// it without mapping it. The error wraps ErrCorruption and names the file
// (name) and the offset.
func CheckFooter(f io.ReaderAt, size int64, name string) error {
	if size < footerLen {
		return corruptf(name, 0, "file is %d bytes, shorter than the %d-byte footer", size, footerLen)
	}
	var b [footerLen]byte
	off := size - footerLen
	if _, err := f.ReadAt(b[:], off); err != nil {
		return fmt.Errorf("rtable: read %s at offset %d: %w", name, off, err)
	}
	_, err := decodeFooterAt(b[:], uint64(off), name)
	return err
}
