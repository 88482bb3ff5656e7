// Package xxh32 computes XXH32, the 32-bit xxHash of Yann Collet, as RocksDB
// links it (util/xxhash.h, XXH32): Checksum(data, seed) equals the C
// function's result for every input and seed. The input is read as
// little-endian 32-bit words whatever the machine's byte order.
//
// The algorithm: inputs of 16 bytes or more run four 32-bit accumulators
// over 16-byte stripes and fold them with rotations; the total length is
// added; the tail is mixed in a 4-byte word, then a byte, at a time; a final
// avalanche of shifts and multiplications spreads every bit.
package xxh32

import (
	"encoding/binary"
	"math/bits"
)

// The five primes of the specification.
const (
	prime1 uint32 = 0x9E3779B1
	prime2 uint32 = 0x85EBCA77
	prime3 uint32 = 0xC2B2AE3D
	prime4 uint32 = 0x27D4EB2F
	prime5 uint32 = 0x165667B1
)

// round mixes one 4-byte lane into an accumulator.
func round(acc, lane uint32) uint32 {
	return bits.RotateLeft32(acc+lane*prime2, 13) * prime1
}

// Checksum returns XXH32 of data with the given seed. It allocates nothing.
func Checksum(data []byte, seed uint32) uint32 {
	n := len(data)
	var h uint32
	if n >= 16 {
		v1 := seed + prime1 + prime2
		v2 := seed + prime2
		v3 := seed
		v4 := seed - prime1
		for len(data) >= 16 {
			v1 = round(v1, binary.LittleEndian.Uint32(data[0:4]))
			v2 = round(v2, binary.LittleEndian.Uint32(data[4:8]))
			v3 = round(v3, binary.LittleEndian.Uint32(data[8:12]))
			v4 = round(v4, binary.LittleEndian.Uint32(data[12:16]))
			data = data[16:]
		}
		h = bits.RotateLeft32(v1, 1) + bits.RotateLeft32(v2, 7) +
			bits.RotateLeft32(v3, 12) + bits.RotateLeft32(v4, 18)
	} else {
		h = seed + prime5
	}
	h += uint32(n)
	for len(data) >= 4 {
		h += binary.LittleEndian.Uint32(data) * prime3
		h = bits.RotateLeft32(h, 17) * prime4
		data = data[4:]
	}
	for _, b := range data {
		h += uint32(b) * prime5
		h = bits.RotateLeft32(h, 11) * prime1
	}
	h ^= h >> 15
	h *= prime2
	h ^= h >> 13
	h *= prime3
	h ^= h >> 16
	return h
}
