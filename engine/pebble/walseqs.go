package pebble

import "encoding/binary"

// The sequence numbers a Pebble WAL holds, for the MANIFEST check
// (manifestcheck.go): which writes replaying the WAL would bring back.
//
// Each record of a Pebble WAL is one write batch, whose first 12 bytes are
// its header (Pebble's batchrepr):
//
//	bytes 0-7   sequence number of the batch's first entry, little-endian
//	bytes 8-11  number of entries, little-endian; entry i has sequence
//	            number first + i
//
// The records are read as scanWAL reads the chunks (walcheck.go): up to the
// first chunk that is damaged, zeros, or carries another WAL's number, which
// is where Pebble's replay stops too.

// walSeqs is what a WAL holds: its file number and, when any is set, the
// sequence numbers of its batches.
type walSeqs struct {
	num uint64
	any bool
	seqRange
}

// seqRange is the closed range of sequence numbers [first, last].
type seqRange struct{ first, last uint64 }

// walSeqRange returns the range of sequence numbers of the batches in WAL
// num's data, and false when it holds none.
func walSeqRange(data []byte, num uint32) (seqRange, bool) {
	var (
		r      seqRange
		found  bool
		header [12]byte
		have   int  // bytes of the current record's header gathered so far
		inRec  bool // inside a record whose header is still being gathered
	)
	for off := 0; off < len(data); {
		blockEnd := blockEndAt(data, off)
		if blockEnd-off < recordHeaderSize {
			off = blockEnd
			continue
		}
		c := readChunk(data, off, blockEnd)
		if !c.valid || (c.hasNum && c.num != num) {
			break
		}
		kind := data[off+6]
		payload := data[off+chunkHeaderSize(kind) : c.end]
		off = c.end
		switch (kind - 1) % 4 { // 0 full, 1 first, 2 middle, 3 last
		case 0, 1:
			have, inRec = 0, true
		}
		if !inRec {
			continue
		}
		have += copy(header[have:], payload)
		if have < len(header) {
			continue
		}
		inRec = false
		first := binary.LittleEndian.Uint64(header[0:8])
		count := uint64(binary.LittleEndian.Uint32(header[8:12]))
		if count == 0 {
			continue
		}
		last := first + count - 1
		if !found {
			r, found = seqRange{first, last}, true
		}
		r.first, r.last = min(r.first, first), max(r.last, last)
	}
	return r, found
}
