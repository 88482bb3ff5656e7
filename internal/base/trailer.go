package base

import "encoding/binary"

// MaxSeq is the largest sequence number: 56 bits, as in RocksDB
// (kMaxSequenceNumber).
const MaxSeq = uint64(1)<<56 - 1

// TrailerLen is the size of a stored trailer.
const TrailerLen = 8

// Trailer is an internal key's sequence number and kind packed in one
// integer: seq<<8 | kind. Comparing two trailers as integers orders them by
// sequence, then kind. Stored as bytes (PutTrailer, the memtables' nodes)
// it is 8 bytes little endian:
//
//	byte 0     kind
//	bytes 1-7  sequence number, least significant byte first
//
// so trailer 7<<8|1 (sequence 7, KindSet) is 01 07 00 00 00 00 00 00.
// Tables store it as a uvarint instead (see sst's package doc).
type Trailer uint64

// MakeTrailer packs seq and kind. seq must be at most MaxSeq.
func MakeTrailer(seq uint64, kind Kind) Trailer { return Trailer(seq<<8 | uint64(kind)) }

// Seq is the trailer's sequence number.
func (t Trailer) Seq() uint64 { return uint64(t) >> 8 }

// Kind is the trailer's kind.
func (t Trailer) Kind() Kind { return Kind(t) }

// SeekTrailer is the trailer a forward search for (key, seq) uses: the
// largest trailer of sequence seq (clamped to MaxSeq), so the first internal
// key at or after (key, SeekTrailer(seq)) is key's newest version with a
// sequence at or below seq, when key has one.
func SeekTrailer(seq uint64) Trailer { return MakeTrailer(min(seq, MaxSeq), KindMax) }

// SeekForPrevTrailer is the trailer a backward search for (key, seq) uses:
// the smallest trailer of sequence seq (clamped to MaxSeq), so the last
// internal key at or before (key, SeekForPrevTrailer(seq)) is key's oldest
// version with a sequence at or above seq, when key has one.
func SeekForPrevTrailer(seq uint64) Trailer { return MakeTrailer(min(seq, MaxSeq), 0) }

// PutTrailer stores t in the first TrailerLen bytes of b (layout above).
func PutTrailer(b []byte, t Trailer) { binary.LittleEndian.PutUint64(b, uint64(t)) }

// DecodeTrailer reads a trailer stored by PutTrailer from the first
// TrailerLen bytes of b.
func DecodeTrailer(b []byte) Trailer { return Trailer(binary.LittleEndian.Uint64(b)) }
