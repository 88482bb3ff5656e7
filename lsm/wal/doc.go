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
// Reader is internal/record's reader over legacy fragments (see that
// package for how it tells a torn tail from corruption and resumes after
// damage); its corruption errors wrap ErrCorruption. It allocates nothing
// per record: a record in one fragment is a slice of the log's bytes, and
// the fragments of a split record are gathered in a buffer it keeps.
package wal
