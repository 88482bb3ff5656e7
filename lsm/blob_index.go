package lsm

import (
	"encoding/binary"
	"fmt"

	"github.com/godbbench/godbbench/blob"
	"github.com/godbbench/godbbench/sst"
)

// blobIndex is the value a table stores under base.KindBlobIndex in place
// of a value kept in a blob file. Its encoding is RocksDB's BlobIndex of
// type kBlob:
//
//	byte 0     type, 1 (kBlob; RocksDB's inlined-TTL and TTL-blob types
//	           are never written and are refused)
//	uvarint    blob file number
//	uvarint    offset of the stored value in the file
//	uvarint    stored (maybe compressed) value length
//	byte       compression of the stored value (RocksDB CompressionType)
//
// So the index of a 4096-byte raw value at offset 34 of blob file 12 is
// 01 0c 22 80 20 00.
type blobIndex struct {
	fileNum, offset, size uint64
	compression           sst.Compression
}

// blobIndexTypeBlob is RocksDB's BlobIndex::Type::kBlob.
const blobIndexTypeBlob = 1

func (x blobIndex) encode(b []byte) []byte {
	b = append(b, blobIndexTypeBlob)
	b = binary.AppendUvarint(b, x.fileNum)
	b = binary.AppendUvarint(b, x.offset)
	b = binary.AppendUvarint(b, x.size)
	return append(b, byte(x.compression))
}

// decodeBlobIndex parses an encoded blob index; damage is an error
// wrapping ErrCorruption.
func decodeBlobIndex(b []byte) (blobIndex, error) {
	var x blobIndex
	if len(b) < 5 || b[0] != blobIndexTypeBlob {
		return x, fmt.Errorf("%w: bad blob index % x", ErrCorruption, b)
	}
	rest := b[1:]
	var ok bool
	if x.fileNum, rest, ok = cutUvarint(rest); ok {
		if x.offset, rest, ok = cutUvarint(rest); ok {
			x.size, rest, ok = cutUvarint(rest)
		}
	}
	if !ok || len(rest) != 1 {
		return x, fmt.Errorf("%w: bad blob index % x", ErrCorruption, b)
	}
	x.compression = sst.Compression(rest[0])
	return x, nil
}

// cutUvarint decodes the uvarint at the start of b and returns the rest.
func cutUvarint(b []byte) (uint64, []byte, bool) {
	v, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, b, false
	}
	return v, b[n:], true
}

// recordBytes is the length of the blob record the index points into
// (header, key and stored value): the unit of a blob file's garbage.
func (x blobIndex) recordBytes(key []byte) uint64 {
	return blob.RecordHeaderLen + uint64(len(key)) + x.size
}
