package pebble

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/godbbench/godbbench/internal/record"
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
// (or the end-of-log trailer, number + 1) ends the log. internal/record
// reads the chunks.
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
// and is accepted. (internal/record's reader finds the valid chunks after
// damage; in a recyclable log it counts only those carrying the log's
// number.)

// checkWAL scans the WAL at path, whose file number is num, with r, and
// returns the sequence numbers it holds.
func checkWAL(fsys vfs.FS, r *record.Reader, path string, num uint64) (walSeqs, error) {
	data, err := readWhole(fsys, path)
	if err != nil {
		return walSeqs{}, err
	}
	seqs, damage := scanWAL(r, data, uint32(num))
	if damage >= 0 {
		return walSeqs{}, fmt.Errorf("Corruption: %s: a damaged record at offset %d is followed by valid records "+
			"(replaying up to the damage would drop them)", path, damage)
	}
	seqs.num = num
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

// scanWAL reads the records of WAL num's data with r (reset to data) up to
// where Pebble's replay stops, and returns the sequence numbers of their
// batches (walseqs.go) and the offset of a damaged chunk that valid chunks
// of this WAL follow, or -1 when the log is sound or ends in a torn tail.
func scanWAL(r *record.Reader, data []byte, num uint32) (walSeqs, int) {
	r.SetLogNum(num)
	r.Reset(data)
	var seqs walSeqs
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return seqs, -1
		}
		if err != nil {
			if r.DataAfterCorruption() {
				return seqs, int(r.CorruptionOffset())
			}
			return seqs, -1 // a torn tail
		}
		seqs.add(rec)
	}
}
