package wal

import (
	"encoding/binary"
	"fmt"
	"io"
	"sync"

	"github.com/godbbench/godbbench/internal/record"
	"github.com/klauspost/compress/zstd"
)

// ZSTD is RocksDB's CompressionType number of zstd (kZSTD), the value a
// compressed log's first chunk carries: the only WAL compression RocksDB
// 7.8.3 has.
const ZSTD = 7

// zstdMagic opens every zstd frame (RFC 8878, section 3.1.1).
var zstdMagic = [4]byte{0x28, 0xb5, 0x2f, 0xfd}

// maxDecodedRecord bounds what one compressed record may decode to: a
// RocksDB write batch counts its entries in 32 bits and its size fits in
// 32 bits as well.
const maxDecodedRecord = 4 << 30

// Compressor compresses the records of compressed logs. A zstd encoder
// holds its match tables and entropy state, so one Compressor serves every
// log a database writes; it is safe for concurrent use.
//
// It encodes at klauspost/compress's fastest level (about zstd's level 1;
// RocksDB's streaming compression sets none, so libzstd's default, 3), and
// codes literals with Huffman only in records of entropyMinRecord bytes or
// more: in a small record the Huffman table costs about what it saves,
// while building it was most of the encoding's CPU. Measured in
// docs/BENCHMARKS.md ("WAL compression").
type Compressor struct {
	small *zstd.Encoder // records under entropyMinRecord bytes: raw literals
	large *zstd.Encoder // larger records: Huffman-coded literals
}

// entropyMinRecord is the size from which records are entropy coded: for
// 430-byte fillrandom batches (--value_size=400 --compression_ratio=0.5)
// Huffman coding saved nothing and cost 30 times the rest of the encoding;
// for 4300-byte ones it saved 16% of the frame.
const entropyMinRecord = 4096

// NewCompressor returns a Compressor; each frame carries its content
// checksum, as RocksDB sets ZSTD_c_checksumFlag.
func NewCompressor() (*Compressor, error) {
	c := &Compressor{}
	for _, e := range []struct {
		enc       **zstd.Encoder
		noEntropy bool
	}{{&c.small, true}, {&c.large, false}} {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderCRC(true), zstd.WithZeroFrames(true), zstd.WithNoEntropyCompression(e.noEntropy))
		if err != nil {
			return nil, fmt.Errorf("wal: zstd encoder: %w", err)
		}
		*e.enc = enc
	}
	return c, nil
}

// encode appends the zstd frame of p to dst.
func (c *Compressor) encode(p, dst []byte) []byte {
	if len(p) < entropyMinRecord {
		return c.small.EncodeAll(p, dst)
	}
	return c.large.EncodeAll(p, dst)
}

// NewCompressedWriter returns a Writer appending to w, which must be
// positioned at the start of an empty file, whose records are compressed
// by c: the log opens with the compression chunk (type 9, value ZSTD) and
// every record's payload is one zstd frame of the record.
func NewCompressedWriter(w io.Writer, c *Compressor) *Writer {
	lw := NewWriter(w)
	lw.compressor = c
	var value [4]byte
	binary.LittleEndian.PutUint32(value[:], ZSTD)
	lw.addChunk(record.SetCompressionType, value[:])
	return lw
}

// compress returns the stored form of record p: p itself, or its zstd
// frame in the writer's buffer, which the next call reuses.
func (w *Writer) compress(p []byte) []byte {
	if w.compressor == nil {
		return p
	}
	w.frame = w.compressor.encode(p, w.frame[:0])
	return w.frame
}

// zstdDecoder is shared by every Reader: DecodeAll is safe for concurrent
// use, and a decoder's state is worth keeping across logs.
var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return newDecoder(maxDecodedRecord)
})

// newDecoder returns a zstd decoder that refuses frames decoding to more
// than limit bytes.
func newDecoder(limit uint64) (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(limit),
		zstd.WithDecoderMaxWindow(zstd.MaxWindowSize))
}

// decompress decodes the zstd frame of one stored record into dst's
// storage. Anything but one frame that decodes with its content checksum
// is an error; it never panics.
func decompress(dec *zstd.Decoder, frame, dst []byte) ([]byte, error) {
	if len(frame) < len(zstdMagic) || [4]byte(frame[:4]) != zstdMagic {
		return dst, fmt.Errorf("a compressed record without zstd's frame magic")
	}
	out, err := dec.DecodeAll(frame, dst[:0])
	if err != nil {
		return dst, fmt.Errorf("undecodable zstd record: %v", err)
	}
	return out, nil
}
