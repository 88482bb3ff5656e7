package record

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// BlockSize is the size of a log block.
const BlockSize = 32768

// Header sizes of the three chunk layouts.
const (
	LegacyHeaderSize     = 7
	RecyclableHeaderSize = 11
	SyncedHeaderSize     = 19
)

// SetCompressionType is the type of the chunk that opens a compressed log
// of legacy chunks (RocksDB's kSetCompressionType), with a legacy header; in
// a recyclable log type 9 is a whole record with a synced offset instead.
const SetCompressionType = 9

// Chunk kinds: (type-1)%4 for the types 1 to 12.
const (
	kindFull = iota
	kindFirst
	kindMiddle
	kindLast
)

// Castagnoli is the CRC-32C table chunks are checksummed with.
var Castagnoli = crc32.MakeTable(crc32.Castagnoli)

// MaskCRC masks a CRC as LevelDB does, so that a stored CRC does not match
// the CRC of data that itself holds CRCs.
func MaskCRC(c uint32) uint32 { return ((c >> 15) | (c << 17)) + 0xa282ead8 }

// ErrCorruption is what a Reader's corruption errors wrap unless
// SetCorruptionError chose another.
var ErrCorruption = errors.New("record: corruption")

// headerSize is the header size of chunk type typ in a log that accepts
// recyclable chunks or not, 0 for a type it does not accept.
func headerSize(typ byte, recyclable bool) int {
	switch {
	case typ >= 1 && typ <= 4, typ == SetCompressionType && !recyclable:
		return LegacyHeaderSize
	case !recyclable:
		return 0
	case typ >= 5 && typ <= 8:
		return RecyclableHeaderSize
	case typ >= 9 && typ <= 12:
		return SyncedHeaderSize
	}
	return 0
}

// Reader decodes the records of a log held in memory.
type Reader struct {
	data       []byte
	recyclable bool   // accept chunk types 5-12
	logNum     uint32 // the number those must carry
	strict     bool   // a torn tail is corruption
	errCorrupt error  // wrapped by corruption errors

	off     int    // offset of the next chunk
	rec     []byte // gathers the chunks of a split record; kept by Reset
	recOff  int64  // file offset where the last record returned started
	torn    bool   // the log ended in a torn tail
	tornOff int64  // where the torn tail starts
	resumed bool   // a chunk that decodes follows the last corruption
	damage  int64  // offset of the last corruption

	compression    uint32 // the value of the log's compression chunk
	hasCompression bool   // the log opened with a compression chunk
}

// NewReader returns a Reader over the complete contents of a log of legacy
// chunks (types 1-4).
func NewReader(data []byte) *Reader {
	r := &Reader{errCorrupt: ErrCorruption}
	r.Reset(data)
	return r
}

// NewRecyclableReader returns a Reader over the complete contents of a log
// whose recyclable chunks (types 5-12) carry logNum, the low 32 bits of its
// file number; legacy chunks are accepted too.
func NewRecyclableReader(data []byte, logNum uint32) *Reader {
	r := NewReader(data)
	r.recyclable, r.logNum = true, logNum
	return r
}

// Reset makes r read data from its start, with the same settings, keeping
// its buffer for split records.
func (r *Reader) Reset(data []byte) {
	*r = Reader{
		data: data, recyclable: r.recyclable, logNum: r.logNum, strict: r.strict,
		errCorrupt: r.errCorrupt, rec: r.rec[:0],
	}
}

// SetLogNum sets the number a recyclable log's chunks must carry, for the
// next Reset.
func (r *Reader) SetLogNum(logNum uint32) { r.logNum = logNum }

// SetStrictTail makes a torn tail corruption: for a log that was closed
// cleanly, such as every WAL but the newest.
func (r *Reader) SetStrictTail(strict bool) { r.strict = strict }

// SetCorruptionError sets the error corruption errors wrap.
func (r *Reader) SetCorruptionError(err error) { r.errCorrupt = err }

// Offset is the file offset at which the last record returned by Next began.
func (r *Reader) Offset() int64 { return r.recOff }

// Compression reports the value a legacy log's compression chunk (type 9,
// at offset 0) carried, once Next has read past it: RocksDB's
// CompressionType of every record's payload.
func (r *Reader) Compression() (value uint32, ok bool) { return r.compression, r.hasCompression }

// Reject reports the record Next last returned as corruption: its chunks
// decoded but the caller cannot decode its payload. The reader moves past
// it as after any corruption (see DataAfterCorruption).
func (r *Reader) Reject(why string) error {
	off := int(r.recOff)
	next := r.findChunk(r.off)
	r.resumed, r.damage, r.off = next < len(r.data), r.recOff, next
	return fmt.Errorf("%w at offset %d: %s", r.errCorrupt, off, why)
}

// Torn reports, once Next has returned io.EOF, whether the log ended in a
// torn tail, and the offset where that tail starts.
func (r *Reader) Torn() (bool, int64) { return r.torn, r.tornOff }

// DataAfterCorruption reports, after Next returned a corruption error,
// whether a chunk that decodes lies after the damage: the damage is then in
// the middle of the log, not at its tail. The next call to Next resumes at
// that chunk.
func (r *Reader) DataAfterCorruption() bool { return r.resumed }

// CorruptionOffset is the file offset of the damage the last corruption
// error reported.
func (r *Reader) CorruptionOffset() int64 { return r.damage }

// corrupt reports damage at off and moves the reader to the first chunk at
// or after resume that decodes, or to the end of the log.
func (r *Reader) corrupt(off, resume int, format string, args ...any) error {
	next := r.findChunk(resume)
	r.resumed = next < len(r.data)
	r.damage = int64(off)
	r.off = next
	r.rec = r.rec[:0]
	return fmt.Errorf("%w at offset %d: %s", r.errCorrupt, off, fmt.Sprintf(format, args...))
}

// tornTail ends the log at off: the end of the log, or corruption in
// strict mode.
func (r *Reader) tornTail(off int) error {
	if r.strict {
		r.resumed, r.damage, r.off = false, int64(off), len(r.data)
		return fmt.Errorf("%w at offset %d: a record cut short at the end of a log that was closed", r.errCorrupt, off)
	}
	r.torn, r.tornOff = true, int64(off)
	r.off = len(r.data)
	return io.EOF
}

// padding reports whether the blockLeft bytes at r.off are the zeros a
// writer of recyclable chunks leaves at the end of a block too short for
// its header (up to 18 bytes; a legacy writer leaves up to 6, which Next
// skips without looking).
func (r *Reader) padding(blockLeft int) bool {
	return r.recyclable && blockLeft < SyncedHeaderSize && r.off+blockLeft <= len(r.data) &&
		allZero(r.data[r.off:r.off+blockLeft])
}

// chunkAt reports whether a chunk that decodes (known type, this log's
// number if it carries one, inside its block and the data, checksum
// matching) starts at p.
func (r *Reader) chunkAt(p int) bool {
	blockLeft := BlockSize - p%BlockSize
	if blockLeft < LegacyHeaderSize || len(r.data)-p < LegacyHeaderSize {
		return false
	}
	typ := r.data[p+6]
	hs := headerSize(typ, r.recyclable)
	if hs == 0 || hs > blockLeft || hs > len(r.data)-p {
		return false
	}
	if hs > LegacyHeaderSize && binary.LittleEndian.Uint32(r.data[p+7:]) != r.logNum {
		return false
	}
	n := int(binary.LittleEndian.Uint16(r.data[p+4:]))
	if hs+n > blockLeft || p+hs+n > len(r.data) {
		return false
	}
	return MaskCRC(crc32.Checksum(r.data[p+6:p+hs+n], Castagnoli)) == binary.LittleEndian.Uint32(r.data[p:])
}

// findChunk returns the offset of the first chunk at or after from that
// decodes, or len(data). It tries each block's start first, where a writer
// always begins a chunk, then every offset of that block.
func (r *Reader) findChunk(from int) int {
	for p := from; p < len(r.data); {
		blockEnd := (p/BlockSize + 1) * BlockSize
		if p%BlockSize == 0 && r.chunkAt(p) {
			return p
		}
		for ; p < blockEnd && p < len(r.data); p++ {
			if r.chunkAt(p) {
				return p
			}
		}
	}
	return len(r.data)
}

// Next returns the next record. The slice is valid until the next call. It
// returns io.EOF at the end of the log, including a torn tail (see Torn)
// and, in a recyclable log, a chunk of another log. After an error wrapping
// the corruption error, calling Next again skips to the next chunk that
// decodes (see DataAfterCorruption).
func (r *Reader) Next() ([]byte, error) {
	r.rec = r.rec[:0]
	r.resumed = false
	inRecord := false
	recStart := 0
	end := func() error { // the log ends before the chunk at r.off
		if inRecord {
			return r.tornTail(recStart) // a record missing its last chunk
		}
		return io.EOF
	}
	for {
		blockLeft := BlockSize - r.off%BlockSize
		if blockLeft < LegacyHeaderSize || r.padding(blockLeft) {
			r.off += blockLeft // zero trailer
			continue
		}
		if r.off >= len(r.data) {
			return nil, end()
		}
		start := r.off
		if len(r.data)-start < LegacyHeaderSize {
			return nil, r.tornTail(start) // a header cut short
		}
		h := r.data[start:]
		stored := binary.LittleEndian.Uint32(h[0:4])
		n := int(binary.LittleEndian.Uint16(h[4:6]))
		typ := h[6]
		if typ == 0 && n == 0 && stored == 0 {
			// Zeros where a header should be: only a torn or preallocated tail
			// looks like this; a writer never emits it.
			if allZero(r.data[start:]) {
				return nil, end()
			}
			return nil, r.corrupt(start, start+LegacyHeaderSize, "zero header followed by data")
		}
		hs := headerSize(typ, r.recyclable)
		known := hs != 0
		if !known {
			// Reported once the checksum is known: a chunk of a torn,
			// preallocated tail may have its type byte still zero.
			hs = LegacyHeaderSize
		}
		if hs > blockLeft {
			return nil, r.corrupt(start, start+1, "a %d-byte header past the end of its block", hs)
		}
		if len(r.data)-start < hs {
			return nil, r.tornTail(start) // a header cut short
		}
		if hs+n > blockLeft {
			return nil, r.corrupt(start, start+1, "bad record length %d: past the end of its block", n)
		}
		if start+hs+n > len(r.data) {
			// A payload cut short by the end of the file is a torn tail, unless
			// a chunk that decodes follows the header: then the length is
			// damaged and the records after it were written.
			if r.findChunk(start+hs) < len(r.data) {
				return nil, r.corrupt(start, start+hs, "bad record length %d: past the end of the log", n)
			}
			if inRecord {
				return nil, r.tornTail(recStart)
			}
			return nil, r.tornTail(start)
		}
		if MaskCRC(crc32.Checksum(r.data[start+6:start+hs+n], Castagnoli)) != stored {
			if rest := r.data[start+hs+n:]; len(rest) > 0 && allZero(rest) {
				// The last chunk of the file, followed by zeros: a copy into a
				// mapped, preallocated log that a crash stopped.
				if inRecord {
					return nil, r.tornTail(recStart)
				}
				return nil, r.tornTail(start)
			}
			return nil, r.corrupt(start, start+1, "checksum mismatch")
		}
		if !known {
			r.off = start + hs + n
			return nil, r.corrupt(start, r.off, "unknown chunk type %d", typ)
		}
		if hs > LegacyHeaderSize && binary.LittleEndian.Uint32(h[7:11]) != r.logNum {
			// An older log's chunk in a recycled file: this log ends here.
			r.off = len(r.data)
			return nil, end()
		}
		payload := r.data[start+hs : start+hs+n]
		r.off = start + hs + n
		if typ == SetCompressionType && !r.recyclable {
			if start != 0 || len(payload) != 4 {
				return nil, r.corrupt(start, r.off, "a %d-byte compression chunk at offset %d: only the first chunk of a log may set its compression, in 4 bytes", len(payload), start)
			}
			r.compression, r.hasCompression = binary.LittleEndian.Uint32(payload), true
			continue
		}
		switch (typ - 1) % 4 {
		case kindFull:
			if inRecord {
				// Resume at this record: it decodes on its own.
				return nil, r.corrupt(start, start, "a whole-record chunk inside a split record")
			}
			r.recOff = int64(start)
			return payload, nil
		case kindFirst:
			if inRecord {
				return nil, r.corrupt(start, start, "a first chunk inside a split record")
			}
			inRecord = true
			recStart = start
			r.rec = append(r.rec, payload...)
		default:
			if !inRecord {
				return nil, r.corrupt(start, r.off, "chunk type %d without a first chunk", typ)
			}
			r.rec = append(r.rec, payload...)
			if (typ-1)%4 == kindLast {
				r.recOff = int64(recStart)
				return r.rec, nil
			}
		}
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
