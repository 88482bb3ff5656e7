package tracefmt

import (
	"bufio"
	"encoding/binary"
	"io"
)

// Writer writes a trace file (the format is in the package comment). It is
// not safe for concurrent use; it reuses one buffer for every record, so
// recording allocates nothing once the buffer has grown.
type Writer struct {
	w   *bufio.Writer
	buf []byte // the record being encoded
	err error  // the first write error; every later call returns it
}

// NewWriter writes the header, stamped ts (microseconds since the epoch),
// to w and returns a writer of the records that follow.
func NewWriter(w io.Writer, ts uint64) (*Writer, error) {
	t := &Writer{w: bufio.NewWriterSize(w, 64<<10), buf: make([]byte, 0, 256)}
	b := t.start(ts, TypeBegin)
	b = append(b, Magic+"\tTrace Version: 0.2\tRocksDB Version: 7.8\tFormat: Timestamp OpType Payload\n"...)
	return t, t.finish(b)
}

// start begins a record of type typ in the buffer, its length left to finish.
func (t *Writer) start(ts uint64, typ Type) []byte {
	b := binary.LittleEndian.AppendUint64(t.buf[:0], ts)
	b = append(b, byte(typ))
	return append(b, 0, 0, 0, 0)
}

// finish fills in the payload length of the record in b and writes it.
func (t *Writer) finish(b []byte) error {
	binary.LittleEndian.PutUint32(b[9:recordHeaderSize], uint32(len(b)-recordHeaderSize))
	t.buf = b
	if t.err == nil {
		_, t.err = t.w.Write(b)
	}
	return t.err
}

// Write records a write of batch, a WriteBatch representation (Batch.Bytes).
func (t *Writer) Write(ts uint64, batch []byte) error {
	b := t.start(ts, TypeWrite)
	b = binary.LittleEndian.AppendUint64(b, mapWrite)
	return t.finish(appendSlice(b, batch))
}

// Get records a point lookup of key in column family cf.
func (t *Writer) Get(ts uint64, cf uint32, key []byte) error {
	b := t.start(ts, TypeGet)
	b = binary.LittleEndian.AppendUint64(b, mapGet)
	b = binary.LittleEndian.AppendUint32(b, cf)
	return t.finish(appendSlice(b, key))
}

// Seek records an iterator positioning of type TypeSeek or
// TypeSeekForPrev at key, with the iterator's bounds (empty: none).
func (t *Writer) Seek(ts uint64, typ Type, cf uint32, key, lower, upper []byte) error {
	b := t.start(ts, typ)
	m := uint64(mapSeekWithoutBds)
	if len(lower) > 0 {
		m |= 1 << bitIterLower
	}
	if len(upper) > 0 {
		m |= 1 << bitIterUpper
	}
	b = binary.LittleEndian.AppendUint64(b, m)
	b = binary.LittleEndian.AppendUint32(b, cf)
	b = appendSlice(b, key)
	if len(lower) > 0 {
		b = appendSlice(b, lower)
	}
	if len(upper) > 0 {
		b = appendSlice(b, upper)
	}
	return t.finish(b)
}

// MultiGet records one batched lookup of keys, all in column family cf.
// RocksDB records no MultiGet of no keys, and neither does this.
func (t *Writer) MultiGet(ts uint64, cf uint32, keys [][]byte) error {
	n := len(keys)
	if n == 0 {
		return t.err
	}
	b := t.start(ts, TypeMultiGet)
	b = binary.LittleEndian.AppendUint64(b, mapMultiGet)
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	b = binary.AppendUvarint(b, uint64(4*n))
	for i := 0; i < n; i++ {
		b = binary.LittleEndian.AppendUint32(b, cf)
	}
	keyBytes := 0
	for _, k := range keys {
		keyBytes += uvarintLen(uint64(len(k))) + len(k)
	}
	b = binary.AppendUvarint(b, uint64(keyBytes))
	for _, k := range keys {
		b = appendSlice(b, k)
	}
	return t.finish(b)
}

// Close writes the footer, stamped ts, and flushes. It does not close the
// underlying writer.
func (t *Writer) Close(ts uint64) error {
	if err := t.finish(t.start(ts, TypeEnd)); err != nil {
		return err
	}
	t.err = t.w.Flush()
	return t.err
}

// appendSlice appends s as a varint32 length then its bytes.
func appendSlice(b, s []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// uvarintLen is the length of v as a varint.
func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}
