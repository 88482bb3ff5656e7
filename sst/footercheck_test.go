package sst

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/internal/base"
)

// TestCheckFooter runs CheckFooter on a whole table and on each way its
// footer can be bad, which must be a corruption naming the file.
func TestCheckFooter(t *testing.T) {
	table := buildTable(t, []entry{{[]byte("a"), 1, base.KindSet, []byte("v")}}, WriterOptions{BlockSize: 4096, BlockRestartInterval: 16, BloomBitsPerKey: 10})
	footerAt := len(table) - footerLen
	withCRC := func(b []byte) {
		f := b[footerAt:]
		binary.LittleEndian.PutUint32(f[40:], crc32.Checksum(f[:40], crcTable))
	}
	cases := []struct {
		name  string
		edit  func(b []byte) []byte
		words string // "" for a good footer
	}{
		{"whole", func(b []byte) []byte { return b }, ""},
		{"short", func(b []byte) []byte { return b[:footerLen-1] }, "file is too short (51 bytes) to be an sstable"},
		{"magic", func(b []byte) []byte { b[len(b)-8] ^= 1; return b }, "Bad table magic number"},
		{"checksum", func(b []byte) []byte { b[footerAt+36] ^= 1; return b }, "footer checksum"},
		{"version", func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[footerAt+36:], 9)
			withCRC(b)
			return b
		}, "Corrupt or unsupported format_version: 9"},
		{"properties handle past the footer", func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[footerAt+24:], uint64(footerAt))
			withCRC(b)
			return b
		}, "outside the file"},
	}
	for _, c := range cases {
		data := c.edit(bytes.Clone(table))
		err := CheckFooter(bytes.NewReader(data), int64(len(data)), "t.sst")
		if c.words == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if !errors.Is(err, ErrCorruption) || !strings.Contains(err.Error(), c.words) || !strings.Contains(err.Error(), "t.sst") {
			t.Errorf("%s: %v; want a corruption naming t.sst and saying %q", c.name, err, c.words)
		}
	}
}
