package blob

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/godbbench/godbbench/internal/record"
	"github.com/godbbench/godbbench/sst"
)

// Reader reads values from one blob file by position (pread). It is safe
// for concurrent use; each caller brings its own Buffer.
type Reader struct {
	f      io.ReaderAt
	size   uint64
	name   string
	header Header
	footer Footer
}

// Buffer is the scratch memory of reads. A Buffer reused across reads makes
// them allocation-free once it has grown to the largest record read.
type Buffer struct {
	record, value []byte
}

// Open checks the header and footer of the file f of size bytes; name is
// used in errors.
func Open(f io.ReaderAt, size int64, name string) (*Reader, error) {
	if size < HeaderLen+FooterLen {
		return nil, fmt.Errorf("%w: %s: file of %d bytes is too short for a blob file", ErrCorruption, name, size)
	}
	var b [HeaderLen + FooterLen]byte
	if err := readFull(f, b[:HeaderLen], 0); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := readFull(f, b[HeaderLen:], size-FooterLen); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	h, err := DecodeHeader(b[:HeaderLen])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ft, err := DecodeFooter(b[HeaderLen:])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &Reader{f: f, size: uint64(size), name: name, header: h, footer: ft}, nil
}

// readFull reads len(b) bytes at off; a short read is corruption (the file
// is shorter than its index says).
func readFull(f io.ReaderAt, b []byte, off int64) error {
	n, err := f.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: read %d of %d bytes at offset %d", ErrCorruption, n, len(b), off)
	}
	return fmt.Errorf("blob: read at offset %d: %w", off, err)
}

// Header returns the file's header.
func (r *Reader) Header() Header { return r.header }

// Footer returns the file's footer.
func (r *Reader) Footer() Footer { return r.footer }

// Read returns the value of the record for key whose stored value starts
// at offset and is size bytes long in compression, as a blob index names
// it. The record's header and data checksums are verified and its key must
// be key. The value is in buf and valid until buf's next use.
func (r *Reader) Read(key []byte, offset, size uint64, compression sst.Compression, buf *Buffer) ([]byte, error) {
	pre := uint64(RecordHeaderLen) + uint64(len(key))
	// offset > end first: offset+size could wrap past 2^64 and pass.
	if end := r.size - FooterLen; offset < HeaderLen+pre || size > maxRecordLen || offset > end || size > end-offset {
		return nil, fmt.Errorf("%w: %s: blob at offset %d of %d bytes is outside the file's %d bytes of records",
			ErrCorruption, r.name, offset, size, r.size)
	}
	n := int(pre + size)
	if cap(buf.record) < n {
		buf.record = make([]byte, n)
	}
	rec := buf.record[:n]
	if err := readFull(r.f, rec, int64(offset-pre)); err != nil {
		return nil, fmt.Errorf("%s: %w", r.name, err)
	}
	h, err := DecodeRecordHeader(rec)
	if err != nil {
		return nil, fmt.Errorf("%s: offset %d: %w", r.name, offset-pre, err)
	}
	if uint64(h.KeyLen) != uint64(len(key)) || uint64(h.ValueLen) != size || h.Compression != compression {
		return nil, fmt.Errorf("%w: %s: record at offset %d (key %d, value %d bytes, compression %d) does not match its index (key %d, value %d bytes, compression %d)",
			ErrCorruption, r.name, offset-pre, h.KeyLen, h.ValueLen, h.Compression, len(key), size, compression)
	}
	data := rec[RecordHeaderLen:]
	if record.MaskCRC(crc32.Checksum(data, record.Castagnoli)) != h.DataChecksum {
		return nil, fmt.Errorf("%w: %s: record at offset %d: data checksum mismatch", ErrCorruption, r.name, offset-pre)
	}
	if !bytes.Equal(data[:len(key)], key) {
		return nil, fmt.Errorf("%w: %s: record at offset %d holds another key", ErrCorruption, r.name, offset-pre)
	}
	stored := data[len(key):]
	if compression == sst.CompressionNone {
		return stored, nil
	}
	vn, err := sst.DecodedLen(stored, compression)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: record at offset %d: %w", ErrCorruption, r.name, offset-pre, err)
	}
	if cap(buf.value) < vn {
		buf.value = make([]byte, vn)
	}
	v := buf.value[:vn]
	if err := sst.Decompress(v, stored, compression); err != nil {
		return nil, fmt.Errorf("%w: %s: record at offset %d: %w", ErrCorruption, r.name, offset-pre, err)
	}
	return v, nil
}
