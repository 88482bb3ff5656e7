package blob

import (
	"bytes"
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
		r.Read(key, offset, size, sst.Compression(compression), &buf)
	})
}
