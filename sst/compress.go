package sst

import (
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/golang/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Compression names a block compression algorithm. The values are RocksDB's
// CompressionType numbers and are stored as the first trailer byte of every
// block.
type Compression uint8

const (
	CompressionNone   Compression = 0
	CompressionSnappy Compression = 1
	CompressionLZ4    Compression = 4
	CompressionZstd   Compression = 7
)

// String returns the db_bench name of c.
func (c Compression) String() string {
	switch c {
	case CompressionNone:
		return "none"
	case CompressionSnappy:
		return "snappy"
	case CompressionLZ4:
		return "lz4"
	case CompressionZstd:
		return "zstd"
	}
	return fmt.Sprintf("compression(%d)", uint8(c))
}

// ParseCompression maps a db_bench --compression_type name to a Compression.
func ParseCompression(name string) (Compression, error) {
	switch name {
	case "none":
		return CompressionNone, nil
	case "snappy":
		return CompressionSnappy, nil
	case "lz4":
		return CompressionLZ4, nil
	case "zstd":
		return CompressionZstd, nil
	}
	return 0, fmt.Errorf("sst: unsupported compression type %q (want none, snappy, lz4 or zstd)", name)
}

// compressor compresses blocks for one Writer. It keeps its encoders so that
// no block allocates a new one (a zstd encoder costs about 1 MiB of state).
type compressor struct {
	kind  Compression
	level int
	zenc  *zstd.Encoder
	lz    lz4.Compressor
	lzhc  lz4.CompressorHC
	buf   []byte
}

func newCompressor(kind Compression, level int) (*compressor, error) {
	c := &compressor{kind: kind, level: level}
	switch kind {
	case CompressionNone, CompressionSnappy:
	case CompressionLZ4:
		if level > 0 {
			c.lzhc.Level = lz4.CompressionLevel(1 << (8 + min(level, 9)))
		}
	case CompressionZstd:
		lvl := zstd.SpeedDefault
		if level > 0 {
			lvl = zstd.EncoderLevelFromZstd(level)
		}
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(lvl), zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderCRC(false), zstd.WithZeroFrames(true))
		if err != nil {
			return nil, fmt.Errorf("sst: zstd encoder: %w", err)
		}
		c.zenc = enc
	default:
		return nil, fmt.Errorf("sst: unsupported compression %d", uint8(kind))
	}
	return c, nil
}

// compress returns the bytes to store for raw and the compression byte that
// goes in the trailer. A block whose compressed form does not save at least
// 1/8 (12.5%) of its size is stored raw: decompressing costs CPU on every
// read, so a marginal saving is not worth it.
func (c *compressor) compress(raw []byte) ([]byte, Compression) {
	if c.kind == CompressionNone || len(raw) == 0 {
		return raw, CompressionNone
	}
	limit := len(raw) - len(raw)/8
	var out []byte
	switch c.kind {
	case CompressionSnappy:
		n := snappy.MaxEncodedLen(len(raw))
		if cap(c.buf) < n {
			c.buf = make([]byte, n)
		}
		out = snappy.Encode(c.buf[:n], raw)
	case CompressionLZ4:
		n := binary.MaxVarintLen64 + lz4.CompressBlockBound(len(raw))
		if cap(c.buf) < n {
			c.buf = make([]byte, n)
		}
		h := binary.PutUvarint(c.buf, uint64(len(raw)))
		var m int
		var err error
		if c.level > 0 {
			m, err = c.lzhc.CompressBlock(raw, c.buf[h:n])
		} else {
			m, err = c.lz.CompressBlock(raw, c.buf[h:n])
		}
		if err != nil || m == 0 { // m == 0: incompressible
			return raw, CompressionNone
		}
		out = c.buf[:h+m]
	case CompressionZstd:
		c.buf = binary.AppendUvarint(c.buf[:0], uint64(len(raw)))
		c.buf = c.zenc.EncodeAll(raw, c.buf)
		out = c.buf
	}
	if len(out) > limit {
		return raw, CompressionNone
	}
	return out, c.kind
}

// zstdDecoder is shared by all readers: DecodeAll is safe for concurrent use
// and keeps its own pool of decoding state, so sharing one avoids one decoder
// (hundreds of KiB) per table.
var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(maxBlockLen))
})

// decodedLen returns the uncompressed length of a stored block.
func decodedLen(stored []byte, kind Compression) (int, error) {
	switch kind {
	case CompressionNone:
		return len(stored), nil
	case CompressionSnappy:
		n, err := snappy.DecodedLen(stored)
		if err != nil {
			return 0, err
		}
		if n > maxBlockLen {
			return 0, fmt.Errorf("decoded length %d too large", n)
		}
		return n, nil
	case CompressionLZ4, CompressionZstd:
		n, k := binary.Uvarint(stored)
		if k <= 0 || n > maxBlockLen {
			return 0, fmt.Errorf("bad decoded length prefix")
		}
		return int(n), nil
	}
	return 0, fmt.Errorf("unknown compression type %d", uint8(kind))
}

// decompress decodes stored into dst, which must be exactly decodedLen
// bytes long.
func decompress(dst, stored []byte, kind Compression) error {
	switch kind {
	case CompressionNone:
		copy(dst, stored)
		return nil
	case CompressionSnappy:
		out, err := snappy.Decode(dst, stored)
		if err != nil {
			return err
		}
		if len(out) != len(dst) || (len(out) > 0 && &out[0] != &dst[0]) {
			return fmt.Errorf("snappy decoded %d bytes, want %d", len(out), len(dst))
		}
		return nil
	case CompressionLZ4:
		_, k := binary.Uvarint(stored)
		n, err := lz4.UncompressBlock(stored[k:], dst)
		if err != nil {
			return err
		}
		if n != len(dst) {
			return fmt.Errorf("lz4 decoded %d bytes, want %d", n, len(dst))
		}
		return nil
	case CompressionZstd:
		_, k := binary.Uvarint(stored)
		d, err := zstdDecoder()
		if err != nil {
			return err
		}
		out, err := d.DecodeAll(stored[k:], dst[:0])
		if err != nil {
			return err
		}
		if len(out) != len(dst) || (len(out) > 0 && &out[0] != &dst[0]) {
			return fmt.Errorf("zstd decoded %d bytes, want %d", len(out), len(dst))
		}
		return nil
	}
	return fmt.Errorf("unknown compression type %d", uint8(kind))
}
