package sst

import (
	"fmt"
	"hash/crc32"

	"github.com/cespare/xxhash/v2"
	"github.com/zeebo/xxh3"

	"github.com/godbbench/godbbench/internal/xxh32"
)

// ChecksumType is the function that checks a table's blocks. A table
// records it in its footer (the RocksDB ChecksumType number, see the
// package doc), so every block of one table is checked the same way.
//
// The zero value is ChecksumCRC32C, so a zero WriterOptions checks every
// block. The constants are not RocksDB's numbers: convert db_bench's
// --checksum_type with ChecksumTypeFromRocksDB.
type ChecksumType uint8

const (
	// ChecksumCRC32C is RocksDB's kCRC32c: the masked CRC32C.
	ChecksumCRC32C ChecksumType = iota
	// ChecksumNone is kNoChecksum: trailers hold 0 and damage inside a
	// block goes unnoticed unless the block fails to decode.
	ChecksumNone
	// ChecksumXXHash is kxxHash: XXH32 with seed 0.
	ChecksumXXHash
	// ChecksumXXHash64 is kxxHash64: the low 32 bits of XXH64, seed 0.
	ChecksumXXHash64
	// ChecksumXXH3 is kXXH3: the low 32 bits of XXH3_64bits over all but
	// the last byte, the last byte then mixed in by a multiplication.
	ChecksumXXH3
	// checksumCRC32CUnmasked is what version 1 tables use: the plain
	// CRC32C. A Writer uses it for WriterOptions.FormatVersion 1.
	checksumCRC32CUnmasked
)

// rocksDBChecksumNumbers maps RocksDB's ChecksumType numbers, as
// --checksum_type takes them and version 2 footers store them, to types.
var rocksDBChecksumNumbers = [...]ChecksumType{
	0: ChecksumNone,
	1: ChecksumCRC32C,
	2: ChecksumXXHash,
	3: ChecksumXXHash64,
	4: ChecksumXXH3,
}

// ChecksumTypeFromRocksDB returns the type RocksDB numbers n (0 kNoChecksum,
// 1 kCRC32c, 2 kxxHash, 3 kxxHash64, 4 kXXH3).
func ChecksumTypeFromRocksDB(n int) (ChecksumType, error) {
	if n < 0 || n >= len(rocksDBChecksumNumbers) {
		return 0, fmt.Errorf("Unrecognized ChecksumType for checksum: %d", n)
	}
	return rocksDBChecksumNumbers[n], nil
}

// RocksDBNumber is the RocksDB ChecksumType number of t, the byte a version
// 2 footer stores.
func (t ChecksumType) RocksDBNumber() uint8 {
	for n, c := range rocksDBChecksumNumbers {
		if c == t {
			return uint8(n)
		}
	}
	return 1 // checksumCRC32CUnmasked: CRC32C, unmasked
}

// String is RocksDB's name of the type.
func (t ChecksumType) String() string {
	switch t {
	case ChecksumCRC32C:
		return "kCRC32c"
	case ChecksumNone:
		return "kNoChecksum"
	case ChecksumXXHash:
		return "kxxHash"
	case ChecksumXXHash64:
		return "kxxHash64"
	case ChecksumXXH3:
		return "kXXH3"
	case checksumCRC32CUnmasked:
		return "CRC32C (format version 1)"
	}
	return fmt.Sprintf("ChecksumType(%d)", uint8(t))
}

// valid reports whether t names a checksum function a writer can use.
func (t ChecksumType) valid() bool { return t <= ChecksumXXH3 }

// xxh3LastBytePrime is RocksDB's kRandomPrime of ModifyChecksumForLastByte.
const xxh3LastBytePrime = 0x6b9083d9

// crc32cMaskDelta is the constant of RocksDB's crc32c::Mask.
const crc32cMaskDelta = 0xa282ead8

// maskCRC32C is RocksDB's crc32c::Mask: rotate right by 15 bits and add a
// constant, so that a CRC stored in data that is itself checksummed does
// not weaken the outer CRC.
func maskCRC32C(c uint32) uint32 { return (c>>15 | c<<17) + crc32cMaskDelta }

// unmaskCRC32C inverts maskCRC32C (crc32c::Unmask).
func unmaskCRC32C(m uint32) uint32 {
	r := m - crc32cMaskDelta
	return r>>17 | r<<15
}

// sum is the checksum of b, a block's stored bytes followed by its
// compression type byte, as RocksDB's ComputeBuiltinChecksum computes it
// over the same bytes. b is never empty.
func (t ChecksumType) sum(b []byte) uint32 {
	switch t {
	case ChecksumCRC32C:
		return maskCRC32C(crc32.Checksum(b, crcTable))
	case ChecksumXXHash:
		return xxh32.Checksum(b, 0)
	case ChecksumXXHash64:
		return uint32(xxhash.Sum64(b))
	case ChecksumXXH3:
		last := len(b) - 1
		return uint32(xxh3.Hash(b[:last])) ^ uint32(b[last])*xxh3LastBytePrime
	case checksumCRC32CUnmasked:
		return crc32.Checksum(b, crcTable)
	}
	return 0 // ChecksumNone
}

// readable is the checksum value as RocksDB prints it in a mismatch
// message: a CRC32C unmasked, anything else as stored.
func (t ChecksumType) readable(v uint32) uint32 {
	if t == ChecksumCRC32C {
		return unmaskCRC32C(v)
	}
	return v
}
