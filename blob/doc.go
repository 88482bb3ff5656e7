// Package blob is the blob file format of the native engine's key-value
// separation (RocksDB's integrated BlobDB idea): large values live in blob
// files and the tables hold a small blob index (file number, offset, size,
// compression) in their place.
//
// Contract: a Writer appends records (key and value, the value compressed
// per the file's compression when that saves at least 1/8) and a footer; a
// Reader reads one value by the position a blob index names, with pread,
// allocation-free with a reused Buffer. Every read checks the record's
// header checksum, its data checksum (over key and stored value), that the
// record's key is the one asked for and that its lengths and compression
// are the index's. Damaged or short bytes are an error wrapping
// ErrCorruption naming the file and offset, never wrong data or a panic.
//
// # Format
//
// All integers are little endian; a "masked CRC" is CRC-32C (Castagnoli)
// masked as LevelDB masks it: ((c >> 15) | (c << 17)) + 0xa282ead8.
//
// Header, HeaderLen = 12 bytes at offset 0:
//
//	bytes 0-3    magic "blob" (62 6c 6f 62)
//	byte  4      format version, 1
//	byte  5      the writer's compression (RocksDB CompressionType number:
//	             0 none, 1 snappy, 4 lz4, 7 zstd)
//	bytes 6-7    zero
//	bytes 8-11   masked CRC of bytes 0-7
//
// Then records, one after another. A record is a RecordHeaderLen = 20
// byte header, the key, and the stored value:
//
//	bytes 0-3    key length K (uint32)
//	bytes 4-7    stored value length V (uint32), after compression
//	byte  8      the value's compression (0 when stored raw)
//	bytes 9-11   zero
//	bytes 12-15  masked CRC of bytes 0-11
//	bytes 16-19  masked CRC of the K key bytes followed by the V value bytes
//	K bytes      key
//	V bytes      stored value; a blob index's offset points here
//
// A compressed value is stored as table blocks are (package sst): snappy
// as is; lz4 and zstd after a uvarint of the raw length.
//
// Footer, FooterLen = 24 bytes at the end of the file:
//
//	bytes 0-3    magic "bend" (62 65 6e 64)
//	bytes 4-11   record count (uint64)
//	bytes 12-19  blob bytes (uint64): the sum over records of 20 + K + V
//	bytes 20-23  masked CRC of bytes 0-19
//
// # Worked example
//
// testdata/example.blob holds k1 = "hello" and k2 = "blob", uncompressed
// (89 bytes):
//
//	00: 62 6c 6f 62 01 00 00 00 78 7d 51 56     header: "blob", v1, none, CRC
//	0c: 02 00 00 00 05 00 00 00 00 00 00 00     record 1: K=2, V=5, none
//	18: 1d 2e 71 67 3b e9 67 6f                 header CRC, data CRC
//	20: 6b 31 68 65 6c 6c 6f                    "k1" "hello" (value at 34)
//	27: 02 00 00 00 04 00 00 00 00 00 00 00     record 2: K=2, V=4, none
//	33: 15 bc 23 e1 0d 7c 4c fb                 header CRC, data CRC
//	3b: 6b 32 62 6c 6f 62                       "k2" "blob" (value at 61)
//	41: 62 65 6e 64 02 00 00 00 00 00 00 00     footer: "bend", count 2,
//	4d: 35 00 00 00 00 00 00 00 e7 6a eb c9     blob bytes 53, CRC
//
// The blob index of k1 is then (file, offset 34, size 5, none): the reader
// reads 20 + 2 + 5 bytes at 34 - 22 = 12 and checks them.
package blob
