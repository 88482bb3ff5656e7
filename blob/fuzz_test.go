package blob

import (
	"bytes"
	"errors"
	"testing"

	"github.com/godbbench/godbbench/sst"
)

// FuzzDecoders feeds arbitrary bytes to every decoder: none may panic.
func FuzzDecoders(f *testing.F) {
	data, _, _ := writeFile(f, sst.CompressionNone, exampleRecords())
	f.Add(data)
	f.Add(data[:HeaderLen])
	f.Fuzz(func(t *testing.T, b []byte) {
		DecodeHeader(b)
		DecodeFooter(b)
		DecodeRecordHeader(b)
	})
}

// FuzzRead opens arbitrary bytes as a blob file and reads a record named by
// arbitrary index fields: an error or a value whose checksum matched, never
// a panic.
func FuzzRead(f *testing.F) {
	data, ws, _ := writeFile(f, sst.CompressionNone, exampleRecords())
	f.Add(data, ws[0].key, ws[0].offset, ws[0].size, uint8(0))
	sdata, sws, _ := writeFile(f, sst.CompressionSnappy, [][2][]byte{{[]byte("k"), bytes.Repeat([]byte("ab"), 100)}})
	f.Add(sdata, sws[0].key, sws[0].offset, sws[0].size, uint8(sws[0].compression))
	f.Fuzz(func(t *testing.T, file, key []byte, offset, size uint64, compression uint8) {
		r, err := Open(bytes.NewReader(file), int64(len(file)), "fuzz.blob")
		if err != nil {
			return
		}
		var buf Buffer
		v, err := r.Read(key, offset, size, sst.Compression(compression), &buf)
		if err == nil && (offset > uint64(len(file)) || size > uint64(len(file))-offset) {
			t.Fatalf("Read of %d bytes at %d from a %d-byte file returned %d bytes", size, offset, len(file), len(v))
		}
		if cap(buf.record) > len(file) {
			t.Fatalf("Read of %d bytes at %d from a %d-byte file sized a %d-byte buffer (%v)", size, offset, len(file), cap(buf.record), err)
		}
	})
}

// TestReadOffsetWraps: an index whose offset and size add past 2^64 is
// outside the file, an ErrCorruption error before any buffer is sized for
// it.
func TestReadOffsetWraps(t *testing.T) {
	data, ws, _ := writeFile(t, sst.CompressionNone, exampleRecords())
	r, err := Open(bytes.NewReader(data), int64(len(data)), "wrap.blob")
	if err != nil {
		t.Fatal(err)
	}
	var buf Buffer
	size := uint64(1 << 30)
	offset := -size + 100 // offset+size wraps to 100
	if _, err := r.Read(ws[0].key, offset, size, sst.CompressionNone, &buf); !errors.Is(err, ErrCorruption) || cap(buf.record) != 0 {
		t.Fatalf("Read at offset %d of %d bytes: %v, buffer %d bytes; want ErrCorruption and no buffer", offset, size, err, cap(buf.record))
	}
}
