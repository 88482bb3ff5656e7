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
// holds about 1 MiB of state, so one Compressor serves every log a
// database writes; it is safe for concurrent use.
type Compressor struct {
	enc *zstd.Encoder
}

// NewCompressor returns a Compressor at zstd's default level (3), as
// RocksDB's streaming WAL compression, with each frame's content checksum
// on (RocksDB sets ZSTD_c_checksumFlag).
func NewCompressor() (*Compressor, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderCRC(true), zstd.WithZeroFrames(true))
	if err != nil {
		return nil, fmt.Errorf("wal: zstd encoder: %w", err)
	}
	return &Compressor{enc: enc}, nil
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
	w.frame = w.compressor.enc.EncodeAll(p, w.frame[:0])
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
