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
// The records are those scanWAL reads (walcheck.go): up to the first chunk
// that is damaged, zeros, or carries another WAL's number, which is where
// Pebble's replay stops too.

// walSeqs is what a WAL holds: its file number and, when any is set, the
// sequence numbers of its batches.
type walSeqs struct {
	num uint64
	any bool
	seqRange
}

// seqRange is the closed range of sequence numbers [first, last].
type seqRange struct{ first, last uint64 }

// add adds the sequence numbers of the batch rec, a record of the WAL.
func (w *walSeqs) add(rec []byte) {
	if len(rec) < 12 {
		return
	}
	first := binary.LittleEndian.Uint64(rec[0:8])
	count := uint64(binary.LittleEndian.Uint32(rec[8:12]))
	if count == 0 {
		return
	}
	last := first + count - 1
	if !w.any {
		w.seqRange, w.any = seqRange{first, last}, true
	}
	w.first, w.last = min(w.first, first), max(w.last, last)
}
