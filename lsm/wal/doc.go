// Package wal implements the record log used by the native engine for its
// write-ahead logs and its MANIFEST: a sequence of records, each split into
// fragments that never cross a 32 KiB block boundary, each fragment protected
// by a CRC-32C. It is the LevelDB/RocksDB log format (legacy, non-recyclable
// records), so a reader can resynchronise at any block boundary.
//
// # Format
//
// The file is a sequence of 32768-byte blocks (the last one may be short).
// A block holds fragments back to back. A fragment is a 7-byte header followed
// by its payload:
//
//	offset size field
//	0      4    checksum: masked CRC-32C (Castagnoli) of the type byte followed
//	            by the payload, little-endian. Masking is
//	            ((crc >> 15) | (crc << 17)) + 0xa282ead8, as in LevelDB.
//	4      2    length of the payload, little-endian (0..32761)
//	6      1    type: 1 FULL (the whole record), 2 FIRST, 3 MIDDLE, 4 LAST
//	7      n    payload
//
// A record that fits in the rest of the current block is written as one FULL
// fragment; otherwise as FIRST, zero or more MIDDLE and one LAST fragment, each
// filling its block. When fewer than 7 bytes remain in a block, they are
// written as zeros and the next fragment starts at the next block. A record of
// zero bytes is a FULL fragment with length 0.
//
// Example: the record "hi" at the start of a file is the 9 bytes
//
//	xx xx xx xx 02 00 01 68 69
//
// where xx.. is the masked CRC-32C of the bytes 01 68 69.
//
// # Reading and crashes
//
// A writer killed mid-write leaves a torn tail: a header or payload cut short
// by the end of the file, or a FIRST/MIDDLE fragment never followed by its
// LAST. A log written through a mapping of a preallocated file (the native
// engine's --mmap_write) has zeros after its last record instead, and a
// writer killed while copying a record leaves that record's fragment with
// a checksum that fails and zeros after it (such a writer always keeps at
// least one zero byte after its data), so that is a torn tail too; a last
// fragment that fails its checksum at the very end of the file is still
// corruption. The reader reports a torn tail as the end of the log (io.EOF,
// with Reader.Torn true), since the record was never acknowledged, but only
// when nothing that decodes follows it: a length byte damaged so that a
// fragment seems to reach past the end of the file, with fragments that
// decode after its header, is corruption, not a torn tail. Everything else
// that does not decode (a checksum mismatch, a length crossing its block, an
// unknown type, fragments out of order) is corruption: Next returns an error
// wrapping ErrCorruption with the file offset, and never panics. After
// corruption, Reader.DataAfterCorruption tells whether a fragment that
// decodes follows the damage (tried at each later block's start first, where
// a writer always begins one, and at every offset after the damage), and
// the next call to Next
// resumes there, so a caller can tell damage in the middle of a log from
// damage at its end, and skip damage when it chooses to.
package wal
