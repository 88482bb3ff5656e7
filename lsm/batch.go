package lsm

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/godbbench/godbbench/internal/base"
	"github.com/godbbench/godbbench/sst"
)

// batchHeaderSize is the fixed header of an encoded batch: sequence (8) and
// count (4).
const batchHeaderSize = 12

// ErrCorruptBatch is wrapped by errors decoding a batch.
var ErrCorruptBatch = errors.New("lsm: corrupt batch")

// Batch is an ordered group of writes applied atomically. Its encoding (see
// the package comment) is also its WAL record, so committing it copies no
// bytes besides the WAL append. Reset keeps the buffer for reuse.
type Batch struct {
	data  []byte
	count uint32
	// tooLarge is the error of a Put or Delete whose key or value no table
	// can hold (sst.MaxKeyLen, sst.MaxValueLen); Write refuses the batch
	// with it, so the write is never acknowledged and then left unflushable.
	tooLarge error
	// otherFamilies is set once a record names a family other than the
	// default (batch_family.go).
	otherFamilies bool
}

// Errors of writes too large for a table, in RocksDB's words for its own
// (larger) limits.
var (
	ErrKeyTooLarge   = errors.New("Invalid argument: key is too large")
	ErrValueTooLarge = errors.New("Invalid argument: value is too large")
)

// NewBatch returns an empty batch.
func NewBatch() *Batch {
	b := &Batch{}
	b.Reset()
	return b
}

// Reset empties the batch, keeping its buffer.
func (b *Batch) Reset() {
	if cap(b.data) < batchHeaderSize {
		b.data = make([]byte, batchHeaderSize, 256)
	}
	b.data = b.data[:batchHeaderSize]
	clear(b.data)
	b.count = 0
	b.tooLarge = nil
	b.otherFamilies = false
}

// Put adds key -> value.
func (b *Batch) Put(key, value []byte) { b.addWithValue(base.KindSet, 0, key, value) }

// Merge adds a merge operand for key (RocksDB's WriteBatch::Merge): reads
// apply it with the DB's merge operator to the older versions of key.
func (b *Batch) Merge(key, operand []byte) { b.addWithValue(base.KindMerge, 0, key, operand) }

// addWithValue appends a record of family that carries a value (Put,
// Merge).
func (b *Batch) addWithValue(kind base.Kind, family uint32, key, value []byte) {
	if len(key) > sst.MaxKeyLen || len(value) > sst.MaxValueLen {
		b.refuse(key)
		return
	}
	b.appendRecord(kind, family, key, value)
}

// appendRecord appends a record of family with a key and a value.
func (b *Batch) appendRecord(kind base.Kind, family uint32, key, value []byte) {
	b.appendKind(kind, family)
	b.data = binary.AppendUvarint(b.data, uint64(len(key)))
	b.data = append(b.data, key...)
	b.data = binary.AppendUvarint(b.data, uint64(len(value)))
	b.data = append(b.data, value...)
	b.count++
	binary.LittleEndian.PutUint32(b.data[8:12], b.count)
}

// DeleteRange adds a range tombstone deleting every key in [start, end)
// (RocksDB's WriteBatch::DeleteRange): record kind 15, start as the key,
// end as the value (see the package comment). An empty range (start >= end)
// is kept and deletes nothing, as in RocksDB.
func (b *Batch) DeleteRange(start, end []byte) { b.deleteRange(0, start, end) }

// deleteRange appends a range tombstone of family.
func (b *Batch) deleteRange(family uint32, start, end []byte) {
	if len(start) > sst.MaxKeyLen || len(end) > sst.MaxKeyLen {
		if b.tooLarge == nil {
			b.tooLarge = ErrKeyTooLarge
		}
		return
	}
	b.appendRecord(base.KindRangeDelete, family, start, end)
}

// Delete adds a tombstone for key.
func (b *Batch) Delete(key []byte) { b.delete(0, key) }

// delete appends a tombstone for key in family.
func (b *Batch) delete(family uint32, key []byte) {
	if len(key) > sst.MaxKeyLen {
		b.refuse(key)
		return
	}
	b.appendKind(base.KindDelete, family)
	b.data = binary.AppendUvarint(b.data, uint64(len(key)))
	b.data = append(b.data, key...)
	b.count++
	binary.LittleEndian.PutUint32(b.data[8:12], b.count)
}

// refuse marks the batch unwritable: Write returns the error and writes
// nothing of it.
func (b *Batch) refuse(key []byte) {
	if b.tooLarge != nil {
		return
	}
	b.tooLarge = ErrValueTooLarge
	if len(key) > sst.MaxKeyLen {
		b.tooLarge = ErrKeyTooLarge
	}
}

// Count is the number of writes in the batch.
func (b *Batch) Count() int { return int(b.count) }

// Size is the encoded size in bytes.
func (b *Batch) Size() int { return len(b.data) }

// Empty reports whether the batch has no writes.
func (b *Batch) Empty() bool { return b.count == 0 }

func (b *Batch) setSeq(seq uint64) { binary.LittleEndian.PutUint64(b.data[0:8], seq) }

// Repr is the encoded batch (valid until the batch changes).
func (b *Batch) Repr() []byte { return b.data }

// batchReader decodes an encoded batch record by record.
type batchReader struct {
	data  []byte // records not yet read
	seq   uint64 // sequence of the next record
	count uint32 // records left as declared by the header
	// family is the column family of the record next returned last: 0
	// (the default) unless it was one of the family kinds
	// (batch_family.go).
	family uint32
}

// newBatchReader validates the header of an encoded batch.
func newBatchReader(repr []byte) (batchReader, error) {
	if len(repr) < batchHeaderSize {
		return batchReader{}, fmt.Errorf("%w: %d bytes, shorter than the 12-byte header", ErrCorruptBatch, len(repr))
	}
	return batchReader{
		data:  repr[batchHeaderSize:],
		seq:   binary.LittleEndian.Uint64(repr[0:8]),
		count: binary.LittleEndian.Uint32(repr[8:12]),
	}, nil
}

// next returns the next record. ok is false at the end; err reports bytes that
// do not decode or disagree with the header's count.
func (r *batchReader) next() (kind base.Kind, key, value []byte, seq uint64, ok bool, err error) {
	if len(r.data) == 0 {
		if r.count != 0 {
			return 0, nil, nil, 0, false, fmt.Errorf("%w: %d records missing", ErrCorruptBatch, r.count)
		}
		return 0, nil, nil, 0, false, nil
	}
	if r.count == 0 {
		return 0, nil, nil, 0, false, fmt.Errorf("%w: more records than the count", ErrCorruptBatch)
	}
	kind = base.Kind(r.data[0])
	rest := r.data[1:]
	r.family = 0
	if plain, ok := familyKindBase(kind); ok {
		kind = plain
		if r.family, rest, err = readFamilyID(rest); err != nil {
			return 0, nil, nil, 0, false, err
		}
	}
	key, rest, err = readLengthPrefixed(rest)
	if err != nil {
		return 0, nil, nil, 0, false, err
	}
	switch kind {
	case base.KindSet, base.KindMerge, base.KindRangeDelete:
		value, rest, err = readLengthPrefixed(rest)
		if err != nil {
			return 0, nil, nil, 0, false, err
		}
	case base.KindDelete:
	default:
		return 0, nil, nil, 0, false, fmt.Errorf("%w: unknown record kind %d", ErrCorruptBatch, kind)
	}
	r.data = rest
	seq = r.seq
	r.seq++
	r.count--
	return kind, key, value, seq, true, nil
}

func readLengthPrefixed(b []byte) (field, rest []byte, err error) {
	n, w := binary.Uvarint(b)
	if w <= 0 {
		return nil, nil, fmt.Errorf("%w: bad length varint", ErrCorruptBatch)
	}
	b = b[w:]
	if n > uint64(len(b)) {
		return nil, nil, fmt.Errorf("%w: length %d exceeds the %d bytes left", ErrCorruptBatch, n, len(b))
	}
	return b[:n], b[n:], nil
}

// validateBatch checks that repr decodes completely and returns its first
// sequence and record count.
func validateBatch(repr []byte) (seq uint64, count uint32, err error) {
	r, err := newBatchReader(repr)
	if err != nil {
		return 0, 0, err
	}
	seq, count = r.seq, r.count
	for {
		_, _, _, _, ok, err := r.next()
		if err != nil {
			return 0, 0, err
		}
		if !ok {
			return seq, count, nil
		}
	}
}
