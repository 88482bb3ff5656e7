// Package record reads logs in the LevelDB/RocksDB record format, the
// format of the native engine's WALs and MANIFEST (lsm/wal) and of Pebble's
// WALs and MANIFEST (read by engine/pebble's checks before Pebble opens a
// directory). A log is a sequence of records; each record is split into
// chunks that never cross a 32 KiB block boundary, each chunk protected by
// a CRC-32C.
//
// # Format
//
// The file is a sequence of 32768-byte blocks (the last one may be short).
// A block holds chunks back to back; when fewer bytes than a header are
// left in a block, they are zeros and the next chunk starts at the next
// block (a writer of 11- or 19-byte headers leaves up to 18 such bytes). A chunk is a header then its payload:
//
//	offset size field
//	0      4    checksum: masked CRC-32C (Castagnoli) of the bytes from
//	            offset 6 to the end of the payload (the type byte, the rest
//	            of the header, the payload), little-endian. Masking is
//	            ((crc >> 15) | (crc << 17)) + 0xa282ead8, as in LevelDB.
//	4      2    payload length, little-endian
//	6      1    type, below
//	7      4    types 5-12 only: the low 32 bits of the log's file number,
//	            little-endian
//	11     8    types 9-12 only: the offset up to which the writer had
//	            synced the log, little-endian (Pebble's WAL)
//
// The types are, for a whole record in one chunk, and the first, middle and
// last chunks of a record split across blocks:
//
//	1 2 3 4     legacy chunks: 7-byte header (LevelDB, RocksDB, the native
//	            engine, Pebble's MANIFEST)
//	5 6 7 8     recyclable chunks: 11-byte header (RocksDB's recycled
//	            logs, Pebble's WAL)
//	9 10 11 12  recyclable chunks with the synced offset: 19-byte header
//	            (Pebble's WAL)
//
// In a log of legacy chunks type 9 is instead RocksDB's kSetCompressionType:
// a chunk with a 7-byte header and a 4-byte payload, RocksDB's
// CompressionType of every later record's payload as a little-endian
// uint32, allowed only as the first chunk of the log (offset 0). Reader
// reads it (Reader.Compression) and returns the records as stored; the
// log's owner decompresses them (lsm/wal).
//
// A writer reusing an old log file for a new log overwrites it from the
// start, so past the new log's records lie the old log's, which carry the
// old file number: a reader of a recyclable log stops at a chunk with
// another number.
//
// # Reading and crashes
//
// A writer killed mid-write leaves a torn tail: a header or payload cut
// short by the end of the file, or a first or middle chunk never followed
// by its last. A log written through a mapping of a preallocated file (the
// native engine's --mmap_write) has zeros after its last record, and a
// writer killed while copying a record leaves that record's chunk with a
// checksum that fails and zeros after it, which is a torn tail too; a last
// chunk that fails its checksum at the very end of the file is corruption.
// Reader reports a torn tail as the end of the log (io.EOF, with
// Reader.Torn true) when nothing that decodes follows it, or, in strict
// mode (for a log that must have been closed cleanly), as corruption.
// Everything else that does not decode (a checksum mismatch, a length
// crossing its block, an unknown type, chunks out of order, a zeroed
// header with data after it) is corruption: Next returns an error wrapping
// the reader's corruption error with the file offset, and never panics.
// After corruption, Reader.DataAfterCorruption tells whether a chunk that
// decodes (and, in a recyclable log, carries its number) follows the
// damage, tried at each later block's start first, where a writer always
// begins one, then at every offset; the next call to Next resumes there.
//
// Reading allocates nothing per record: a record in one chunk is a slice
// of the log's bytes, and the chunks of a split record are gathered in a
// buffer the Reader keeps across records and, through Reset, across logs.
package record
