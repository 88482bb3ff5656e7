package blob

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	"github.com/godbbench/godbbench/internal/record"
	"github.com/godbbench/godbbench/sst"
)

// ErrCorruption is wrapped by every error that reports damaged or malformed
// bytes in a blob file.
var ErrCorruption = errors.New("blob: Corruption")

// Sizes of the fixed parts of a file (see the package comment).
const (
	HeaderLen       = 12
	RecordHeaderLen = 20
	FooterLen       = 24
)

// formatVersion is the version byte of the header.
const formatVersion = 1

var (
	headerMagic = [4]byte{'b', 'l', 'o', 'b'}
	footerMagic = [4]byte{'b', 'e', 'n', 'd'}
)

// maxRecordLen bounds the key and value lengths a record header may name,
// so a damaged length cannot size an allocation.
const maxRecordLen = 1 << 30

func checksum(b []byte) uint32 { return record.MaskCRC(crc32.Checksum(b, record.Castagnoli)) }

func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorruption}, args...)...)
}

// Header is the decoded file header.
type Header struct {
	// Compression is the compression the file's writer was made for;
	// every record names the one it is stored in.
	Compression sst.Compression
}

func appendHeader(b []byte, h Header) []byte {
	start := len(b)
	b = append(b, headerMagic[:]...)
	b = append(b, formatVersion, byte(h.Compression), 0, 0)
	return binary.LittleEndian.AppendUint32(b, checksum(b[start:]))
}

// DecodeHeader parses the first HeaderLen bytes of a file.
func DecodeHeader(b []byte) (Header, error) {
	if len(b) < HeaderLen {
		return Header{}, corruptf("header of %d bytes, want %d", len(b), HeaderLen)
	}
	if [4]byte(b[0:4]) != headerMagic {
		return Header{}, corruptf("bad header magic % x", b[0:4])
	}
	if checksum(b[:8]) != binary.LittleEndian.Uint32(b[8:]) {
		return Header{}, corruptf("header checksum mismatch")
	}
	if b[4] != formatVersion {
		return Header{}, corruptf("unknown format version %d", b[4])
	}
	return Header{Compression: sst.Compression(b[5])}, nil
}

// Footer is the decoded file footer.
type Footer struct {
	// Count is the number of records.
	Count uint64
	// BlobBytes is the sum of the records' lengths (header, key and
	// stored value): the unit in which a DB counts a file's garbage.
	BlobBytes uint64
}

func appendFooter(b []byte, f Footer) []byte {
	start := len(b)
	b = append(b, footerMagic[:]...)
	b = binary.LittleEndian.AppendUint64(b, f.Count)
	b = binary.LittleEndian.AppendUint64(b, f.BlobBytes)
	return binary.LittleEndian.AppendUint32(b, checksum(b[start:]))
}

// DecodeFooter parses the last FooterLen bytes of a file.
func DecodeFooter(b []byte) (Footer, error) {
	if len(b) < FooterLen {
		return Footer{}, corruptf("footer of %d bytes, want %d", len(b), FooterLen)
	}
	b = b[len(b)-FooterLen:]
	if [4]byte(b[0:4]) != footerMagic {
		return Footer{}, corruptf("bad footer magic % x", b[0:4])
	}
	if checksum(b[:20]) != binary.LittleEndian.Uint32(b[20:]) {
		return Footer{}, corruptf("footer checksum mismatch")
	}
	return Footer{Count: binary.LittleEndian.Uint64(b[4:]), BlobBytes: binary.LittleEndian.Uint64(b[12:])}, nil
}

// RecordHeader is the decoded fixed part of a record.
type RecordHeader struct {
	KeyLen, ValueLen uint32 // ValueLen: the stored (maybe compressed) length
	Compression      sst.Compression
	DataChecksum     uint32 // masked CRC-32C of key then stored value
}

func appendRecordHeader(b []byte, h RecordHeader) []byte {
	start := len(b)
	b = binary.LittleEndian.AppendUint32(b, h.KeyLen)
	b = binary.LittleEndian.AppendUint32(b, h.ValueLen)
	b = append(b, byte(h.Compression), 0, 0, 0)
	b = binary.LittleEndian.AppendUint32(b, checksum(b[start:]))
	return binary.LittleEndian.AppendUint32(b, h.DataChecksum)
}

// DecodeRecordHeader parses the RecordHeaderLen bytes of a record header.
func DecodeRecordHeader(b []byte) (RecordHeader, error) {
	if len(b) < RecordHeaderLen {
		return RecordHeader{}, corruptf("record header of %d bytes, want %d", len(b), RecordHeaderLen)
	}
	if checksum(b[:12]) != binary.LittleEndian.Uint32(b[12:]) {
		return RecordHeader{}, corruptf("record header checksum mismatch")
	}
	h := RecordHeader{
		KeyLen:       binary.LittleEndian.Uint32(b[0:]),
		ValueLen:     binary.LittleEndian.Uint32(b[4:]),
		Compression:  sst.Compression(b[8]),
		DataChecksum: binary.LittleEndian.Uint32(b[16:]),
	}
	if h.KeyLen > maxRecordLen || h.ValueLen > maxRecordLen {
		return RecordHeader{}, corruptf("record lengths %d and %d out of range", h.KeyLen, h.ValueLen)
	}
	return h, nil
}
