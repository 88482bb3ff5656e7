package dbbench

import (
	"encoding/binary"

	"github.com/golang/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// blockCodec compresses and uncompresses one block the way db_bench's
// compress and uncompress benchmarks do: RocksDB's CompressData and
// UncompressData with compress_format_version 2 and default
// CompressionOptions (so --compression_level is not applied: zstd runs at
// level 3, lz4hc at its default level 9). The compressed forms, byte by byte:
//
//	snappy:          the raw snappy block, no header.
//	lz4, lz4hc:      the uncompressed length as a varint32 (LEB128, 1 to 5
//	                 bytes, low 7 bits first, high bit = more bytes follow),
//	                 then one LZ4 block.
//	zstd:            the same varint32 length, then one zstd frame (content
//	                 size in the frame header, no checksum).
//
// zlib, bzip2 and xpress are not linked into this program, and "none" is no
// compression at all: for those, as for a library db_bench was built
// without, compress reports failure. A codec is for one goroutine; its
// buffers are reused so that no call allocates.
type blockCodec struct {
	kind string
	lz   lz4.Compressor
	lzhc lz4.CompressorHC
	zenc *zstd.Encoder
	zdec *zstd.Decoder
	out  []byte // compressed output
	raw  []byte // uncompressed output
}

// newBlockCodec returns a codec for the --compression_type name kind, sized
// for blocks of up to blockSize bytes.
func newBlockCodec(kind string, blockSize int) *blockCodec {
	c := &blockCodec{kind: kind, raw: make([]byte, blockSize)}
	switch kind {
	case "snappy":
		c.out = make([]byte, snappy.MaxEncodedLen(blockSize))
	case "lz4", "lz4hc":
		c.lzhc.Level = lz4.Level9
		c.out = make([]byte, binary.MaxVarintLen32+lz4.CompressBlockBound(blockSize))
	case "zstd":
		var err error
		c.zenc, err = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(3)),
			zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false))
		if err == nil {
			c.zdec, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
		}
		if err != nil {
			c.kind = "" // no usable zstd: every call fails, as an unlinked codec
			return c
		}
		c.out = make([]byte, 0, binary.MaxVarintLen32+c.zenc.MaxEncodedSize(blockSize))
	}
	return c
}

// compress returns the compressed form of raw, or false where db_bench's
// CompressData returns false. The result is valid until the next call.
func (c *blockCodec) compress(raw []byte) ([]byte, bool) {
	switch c.kind {
	case "snappy":
		return snappy.Encode(c.out, raw), true
	case "lz4", "lz4hc":
		h := binary.PutUvarint(c.out, uint64(len(raw)))
		var n int
		var err error
		if c.kind == "lz4hc" {
			n, err = c.lzhc.CompressBlock(raw, c.out[h:])
		} else {
			n, err = c.lz.CompressBlock(raw, c.out[h:])
		}
		if err != nil || n == 0 {
			return nil, false
		}
		return c.out[:h+n], true
	case "zstd":
		out := binary.AppendUvarint(c.out[:0], uint64(len(raw)))
		return c.zenc.EncodeAll(raw, out), true
	}
	return nil, false
}

// uncompress returns the block that compressed came from, or false where
// db_bench's UncompressData returns no block. The result is valid until the
// next call.
func (c *blockCodec) uncompress(compressed []byte) ([]byte, bool) {
	switch c.kind {
	case "snappy":
		n, err := snappy.DecodedLen(compressed)
		if err != nil || n > len(c.raw) {
			return nil, false
		}
		out, err := snappy.Decode(c.raw, compressed)
		return out, err == nil
	case "lz4", "lz4hc":
		size, h := binary.Uvarint(compressed)
		if h <= 0 || size > uint64(len(c.raw)) {
			return nil, false
		}
		n, err := lz4.UncompressBlock(compressed[h:], c.raw[:size])
		return c.raw[:n], err == nil && uint64(n) == size
	case "zstd":
		size, h := binary.Uvarint(compressed)
		if h <= 0 || size > uint64(len(c.raw)) {
			return nil, false
		}
		out, err := c.zdec.DecodeAll(compressed[h:], c.raw[:0])
		return out, err == nil && uint64(len(out)) == size
	}
	return nil, false
}
