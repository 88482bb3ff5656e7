package sst

import (
	"fmt"
	"io"
)

// CheckFooter reads the footer of a table of size bytes with one read of
// its last 52 bytes and checks it as Open does: the magic number, the
// footer checksum, the format version, and that every block handle lies
// inside the file before the footer. It lets a caller that only needs to
// know a table is whole, such as a DB checking the tables its MANIFEST
// lists at open, do so without opening a Reader (which also reads the
// index, filter and properties blocks and keeps them). The error wraps
// ErrCorruption and names the file (name) and the offset.
func CheckFooter(f io.ReaderAt, size int64, name string) error {
	if err := footerFits(size, name); err != nil {
		return err
	}
	var b [footerLen]byte
	off := size - footerLen
	if _, err := f.ReadAt(b[:], off); err != nil {
		return fmt.Errorf("sst: read %s at offset %d: %w", name, off, err)
	}
	_, err := decodeFooter(b[:], size, name)
	return err
}

// footerFits refuses a file too short to hold a footer.
func footerFits(size int64, name string) error {
	if size < footerLen {
		return corruptf(name, 0, "file is too short (%d bytes) to be an sstable", size)
	}
	return nil
}
