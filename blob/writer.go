package blob

import (
	"fmt"
	"hash/crc32"
	"io"

	"github.com/godbbench/godbbench/internal/record"
	"github.com/godbbench/godbbench/sst"
)

// Writer appends records to one blob file. It is not safe for concurrent
// use. Every Write goes straight to the underlying writer; buffer it (a
// bufio.Writer) for fewer system calls.
type Writer struct {
	w           io.Writer
	comp        *sst.Compressor
	buf         []byte
	offset      uint64
	footer      Footer
	fileSum     uint32 // CRC-32C of every byte written so far
	err         error
	finished    bool
	compression sst.Compression
}

// Properties describe a finished file.
type Properties struct {
	Footer
	// FileSize is the file's length in bytes.
	FileSize uint64
	// Checksum is the CRC-32C (unmasked) of the whole file, as a DB records
	// it in its MANIFEST.
	Checksum uint32
}

// NewWriter starts a blob file on w whose values are compressed with
// compression (a value compressing by less than 1/8 is stored raw; its
// record says so). It writes the header at once.
func NewWriter(w io.Writer, compression sst.Compression) (*Writer, error) {
	comp, err := sst.NewCompressor(compression)
	if err != nil {
		return nil, err
	}
	bw := &Writer{w: w, comp: comp, compression: compression}
	bw.buf = appendHeader(bw.buf[:0], Header{Compression: compression})
	bw.write(bw.buf)
	return bw, bw.err
}

func (w *Writer) write(b []byte) {
	if w.err != nil {
		return
	}
	if _, err := w.w.Write(b); err != nil {
		w.err = fmt.Errorf("blob: write: %w", err)
		return
	}
	w.fileSum = crc32.Update(w.fileSum, record.Castagnoli, b)
	w.offset += uint64(len(b))
}

// Add appends a record of key and value. It returns where the stored value
// starts in the file, its stored length and its compression: what a blob
// index needs to read it back.
func (w *Writer) Add(key, value []byte) (offset, size uint64, compression sst.Compression, err error) {
	if w.finished {
		return 0, 0, 0, fmt.Errorf("blob: Add after Finish")
	}
	if len(key) > maxRecordLen || len(value) > maxRecordLen {
		return 0, 0, 0, fmt.Errorf("blob: record of key %d and value %d bytes is too large", len(key), len(value))
	}
	stored, c := w.comp.Compress(value)
	sum := crc32.Update(crc32.Checksum(key, record.Castagnoli), record.Castagnoli, stored)
	h := RecordHeader{KeyLen: uint32(len(key)), ValueLen: uint32(len(stored)), Compression: c,
		DataChecksum: record.MaskCRC(sum)}
	w.buf = appendRecordHeader(w.buf[:0], h)
	w.write(w.buf)
	w.write(key)
	offset = w.offset
	w.write(stored)
	if w.err != nil {
		return 0, 0, 0, w.err
	}
	w.footer.Count++
	w.footer.BlobBytes += RecordHeaderLen + uint64(len(key)) + uint64(len(stored))
	return offset, uint64(len(stored)), c, nil
}

// EstimatedSize is the file's length so far, without the footer.
func (w *Writer) EstimatedSize() uint64 { return w.offset }

// Finish writes the footer and returns the file's properties. It does not
// sync or close the underlying file.
func (w *Writer) Finish() (Properties, error) {
	if w.finished {
		return Properties{}, fmt.Errorf("blob: Finish called twice")
	}
	w.finished = true
	w.buf = appendFooter(w.buf[:0], w.footer)
	w.write(w.buf)
	if w.err != nil {
		return Properties{}, w.err
	}
	return Properties{Footer: w.footer, FileSize: w.offset, Checksum: w.fileSum}, nil
}
