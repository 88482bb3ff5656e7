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
//	6      1    type: 1 FULL (the whole record), 2 FIRST, 3 MIDDLE, 4 LAST;
//	            9 opens a compressed log (below)
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
// # Compressed logs
//
// A WAL written with --wal_compression=zstd is RocksDB 7.8.3's compressed
// WAL. Its first chunk, at offset 0, says so: type 9 (RocksDB's
// kSetCompressionType), a 7-byte header as above and a 4-byte payload, the
// compression type as a little-endian uint32, 7 for zstd (RocksDB's kZSTD):
//
//	xx xx xx xx 04 00 09 07 00 00 00
//
// where xx.. is the masked CRC-32C of the bytes 09 07 00 00 00. Every
// record after it is stored as one zstd frame (RFC 8878) of the record:
// the frame's bytes are the record's payload, split into FULL, FIRST,
// MIDDLE and LAST chunks as any record. Each frame is complete on its own
// (RocksDB resets its stream at every record, ZSTD_e_end): magic
// 28 b5 2f fd, a frame header with the content size, the blocks, and a
// 4-byte content checksum (the low 32 bits of the XXH64 of the record;
// RocksDB sets ZSTD_c_checksumFlag), except the frame of an empty record,
// which has no checksum. Frames are written at about zstd's level 1 (RocksDB
// leaves libzstd's default, 3), with the literals of records under 4 KiB
// stored raw rather than Huffman-coded (Compressor says why); any zstd
// decoder reads them, RocksDB's included.
//
// A log without the type-9 chunk is not compressed, so logs written
// before compression existed, or with it off, read as before. The MANIFEST
// is never compressed (RocksDB's neither).
//
// Reader decompresses the records of a compressed log. The chunks' CRCs
// cover the stored (compressed) bytes, so a torn or damaged compressed
// log is found and judged exactly as a plain one, below; a record whose
// chunks decode but whose frame does not (bad magic, undecodable blocks,
// a content checksum that fails) is corruption at the record's offset, as
// is every record of a log compressed by another type, and a type-9 chunk
// anywhere but offset 0. When the log's first chunk is itself damaged, the
// reader cannot know whether the log was compressed: it then takes a
// record opening with zstd's magic for a frame (a plain write batch would
// need a sequence number whose low 32 bits are 0xfd2fb528).
//
// # Reading and crashes
//
// Reader is internal/record's reader over legacy fragments (see that
// package for how it tells a torn tail from corruption and resumes after
// damage); its corruption errors wrap ErrCorruption. It allocates nothing
// per record: a record in one fragment is a slice of the log's bytes, the
// fragments of a split record are gathered in a buffer it keeps, and a
// decompressed record is decoded into another. Writer allocates nothing
// per record either: a compressed record's frame is encoded into a buffer
// it keeps, by a zstd encoder shared by every log of a database
// (Compressor).
package wal
