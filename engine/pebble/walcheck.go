package pebble

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// The WAL check made before pebble.Open (see opencheck.go for the others).
//
// A Pebble WAL is a log in Pebble's record format (record/record.go in
// Pebble): 32 KiB blocks of chunks; no chunk crosses a block boundary. A
// chunk is a header then its payload. The header starts as the MANIFEST's
// does (bytes 0-3 masked CRC-32C of everything from byte 6 to the end of
// the payload, little-endian; bytes 4-5 payload length, little-endian; byte
// 6 chunk type) and, for the types Pebble writes to WALs, goes on:
//
//	types 5-8   recyclable chunk (full, first, middle, last): bytes 7-10
//	            the low 32 bits of the WAL's file number, little-endian;
//	            11-byte header
//	types 9-12  the same with bytes 11-18 the WAL's synced offset;
//	            19-byte header
//	types 1-4   the MANIFEST's 7-byte chunk, no file number
//
// Pebble reuses an old WAL file for a new WAL, so past the new records lie
// the old WAL's, carrying the old file number; a chunk with another number
// (or the end-of-log trailer, number + 1) ends the log.
//
// Pebble's reader can tell damage from a torn tail only for chunks that
// carry a synced offset; otherwise it stops at the first bad chunk of the
// newest WAL and replays the records before it, so a flipped byte in the
// middle of the WAL dropped every later write with no error (6 of 12 flips
// in the live part of a WAL in the corruption matrix). RocksDB's default
// (kPointInTimeRecovery) stops there too but reports corruption that
// valid records follow. scanWAL does the same: a bad chunk followed,
// anywhere after it, by a valid chunk carrying this WAL's number is a
// Corruption error naming the file and offset; a bad chunk with nothing of
// this WAL after it is the tail a crash in the middle of an append leaves,
// and is accepted.

// checkWAL scans the WAL at path, whose file number is num, and returns
// the sequence numbers it holds (walseqs.go).
func checkWAL(fsys vfs.FS, path string, num uint64) (walSeqs, error) {
	data, err := readWhole(fsys, path)
	if err != nil {
		return walSeqs{}, err
	}
	if off := scanWAL(data, uint32(num)); off >= 0 {
		return walSeqs{}, fmt.Errorf("Corruption: %s: a damaged record at offset %d is followed by valid records "+
			"(replaying up to the damage would drop them)", path, off)
	}
	seqs := walSeqs{num: num}
	seqs.seqRange, seqs.any = walSeqRange(data, uint32(num))
	return seqs, nil
}

// walNumber returns the file number of a WAL named like 000123.log.
func walNumber(name string) (uint64, bool) {
	if !numbered(name, "", ".log") {
		return 0, false
	}
	n, err := strconv.ParseUint(strings.TrimSuffix(name, ".log"), 10, 64)
	return n, err == nil
}

// walChunk is one chunk header read at some offset.
type walChunk struct {
	end    int    // offset just past the payload
	num    uint32 // file number; meaningful when numbered
	hasNum bool   // a recyclable or synced chunk
	valid  bool   // known type, inside its block, checksum right
	zero   bool   // an all-zero header: the rest of the block is padding
}

// readChunk reads the chunk at off, which has at least 7 bytes before
// blockEnd.
func readChunk(data []byte, off, blockEnd int) walChunk {
	sum := binary.LittleEndian.Uint32(data[off:])
	length := int(binary.LittleEndian.Uint16(data[off+4:]))
	kind := data[off+6]
	if sum == 0 && length == 0 && kind == 0 {
		return walChunk{zero: true}
	}
	header := chunkHeaderSize(kind)
	if header == 0 {
		return walChunk{}
	}
	c := walChunk{end: off + header + length, hasNum: header > recordHeaderSize}
	if off+header > blockEnd || c.end > blockEnd {
		return walChunk{}
	}
	if c.hasNum {
		c.num = binary.LittleEndian.Uint32(data[off+7:])
	}
	crc := crc32.Checksum(data[off+6:c.end], castagnoli)
	c.valid = (crc>>15|crc<<17)+0xa282ead8 == sum
	return c
}

// chunkHeaderSize is the header size of a chunk of type kind, 0 for an
// unknown type.
func chunkHeaderSize(kind byte) int {
	switch {
	case kind >= 1 && kind <= 4:
		return recordHeaderSize
	case kind >= 5 && kind <= 8:
		return recordHeaderSize + 4
	case kind >= 9 && kind <= 12:
		return recordHeaderSize + 12
	}
	return 0
}

// blockEndAt is the end of the block holding off, or of data.
func blockEndAt(data []byte, off int) int {
	return min((off/recordBlockSize+1)*recordBlockSize, len(data))
}

// scanWAL returns the offset of a damaged chunk that valid chunks of WAL
// num follow, or -1 when the log is sound or ends in a torn tail.
func scanWAL(data []byte, num uint32) int {
	for off := 0; off < len(data); {
		blockEnd := blockEndAt(data, off)
		if blockEnd-off < recordHeaderSize {
			off = blockEnd // padding, or a header cut short at the end
			continue
		}
		c := readChunk(data, off, blockEnd)
		switch {
		case c.zero:
			off = blockEnd
		case c.valid && c.hasNum && c.num != num:
			return -1 // the end: an old WAL's records, or the end trailer
		case c.valid:
			off = c.end
		default:
			if validChunkAfter(data, off+1, num) {
				return off
			}
			return -1 // a torn tail
		}
	}
	return -1
}

// validChunkAfter reports whether a valid chunk of WAL num starts at or
// after from. Chunk boundaries after damage are unknown, so every offset is
// tried; the file number and the checksum must both match.
func validChunkAfter(data []byte, from int, num uint32) bool {
	for off := from; off+recordHeaderSize+4 <= len(data); off++ {
		if kind := data[off+6]; kind < 5 || kind > 12 || binary.LittleEndian.Uint32(data[off+7:]) != num {
			continue
		}
		blockEnd := blockEndAt(data, off)
		if blockEnd-off < recordHeaderSize+4 {
			continue
		}
		if c := readChunk(data, off, blockEnd); c.valid && c.num == num {
			return true
		}
	}
	return false
}
