package lsm

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbbench/godbbench/sst"
)

// Offsets in the 52-byte table footer (see package sst): the index
// handle's offset is its first 8 bytes, the CRC32C of the first 40 bytes
// follows them, the magic number ends it.
const (
	footerSize     = 52
	footerCRCAt    = 40
	footerMagicEnd = 52
)

// rewriteFooter changes a table's footer with edit and writes it back,
// with its checksum recomputed when fixCRC is set.
func rewriteFooter(t *testing.T, path string, fixCRC bool, edit func(footer []byte)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	footer := data[len(data)-footerSize:]
	edit(footer)
	if fixCRC {
		sum := crc32.Checksum(footer[:footerCRCAt], crc32.MakeTable(crc32.Castagnoli))
		binary.LittleEndian.PutUint32(footer[footerCRCAt:], sum)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOpenRefusesBadTableFooter damages the footer of a table the MANIFEST
// lists: Open, read-write or read-only, must fail with a Corruption error
// naming the table and the fault, leaving the directory as it was.
func TestOpenRefusesBadTableFooter(t *testing.T) {
	cases := []struct {
		name   string
		fixCRC bool
		edit   func(footer []byte)
		words  []string
	}{
		{"magic", false, func(f []byte) { f[footerMagicEnd-1] ^= 0x01 }, []string{"Bad table magic number: expected 3563600144565953639, found 3491542550528025703"}},
		{"checksum", false, func(f []byte) { f[0] ^= 0x01 }, []string{"footer checksum"}},
		{"index handle past the end", true, func(f []byte) {
			binary.LittleEndian.PutUint64(f[0:], 1<<20)
		}, []string{"block handle (1048576,", "outside the file"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, tables := filledDir(t, true, fileTable)
			rewriteFooter(t, tables[0], c.fixCRC, c.edit)
			words := append([]string{filepath.Base(tables[0]), "footer is bad"}, c.words...)
			openRefused(t, dir, testOptions(), ErrCorruption, words...)
			openRefused(t, dir, testOptions(), sst.ErrCorruption, words...)
			ro := testOptions()
			ro.ReadOnly = true
			openRefused(t, dir, ro, ErrCorruption, words...)
		})
	}
}
