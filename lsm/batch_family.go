package lsm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/godbbench/godbbench/internal/base"
)

// Column-family records of a batch, RocksDB's WriteBatch encoding: a record
// for a family other than the default (id 0) has its own kind byte, then
// the family id as a uvarint (RocksDB's varint32), then the key and value
// as for the plain kind:
//
//	kind  plain kind            RocksDB name
//	4     0 (Delete)            kTypeColumnFamilyDeletion
//	5     1 (Put)               kTypeColumnFamilyValue
//	6     2 (Merge)             kTypeColumnFamilyMerge
//	14    15 (DeleteRange)      kTypeColumnFamilyRangeDeletion
//
// Example, Put("k1","v1") in family 3 at sequence 100:
//
//	64 00 00 00 00 00 00 00  01 00 00 00  05 03 02 6b 31 02 76 31
//
// A record for the default family is always written in its plain kind, so
// a batch that names no other family is encoded exactly as before families
// existed. A family id above 2^32-1 is ErrCorruptBatch.
const (
	batchKindFamilyDelete      = 4
	batchKindFamilySet         = 5
	batchKindFamilyMerge       = 6
	batchKindFamilyRangeDelete = 14
)

// ErrInvalidColumnFamily is Write's error for a batch that names a column
// family the DB does not have, in RocksDB's words.
var ErrInvalidColumnFamily = errors.New("Invalid argument: Invalid column family specified in write batch")

// PutCF adds key -> value to column family family (RocksDB's
// WriteBatch::Put with a column family handle).
func (b *Batch) PutCF(family uint32, key, value []byte) {
	b.addWithValue(base.KindSet, family, key, value)
}

// MergeCF adds a merge operand for key in column family family.
func (b *Batch) MergeCF(family uint32, key, operand []byte) {
	b.addWithValue(base.KindMerge, family, key, operand)
}

// DeleteCF adds a tombstone for key in column family family.
func (b *Batch) DeleteCF(family uint32, key []byte) { b.delete(family, key) }

// DeleteRangeCF adds a range tombstone for [start, end) in column family
// family.
func (b *Batch) DeleteRangeCF(family uint32, start, end []byte) {
	b.deleteRange(family, start, end)
}

// HasOtherFamilies reports whether a record names a family other than the
// default.
func (b *Batch) HasOtherFamilies() bool { return b.otherFamilies }

// appendKind appends a record's kind byte for family, and the family id
// when it is not the default.
func (b *Batch) appendKind(kind base.Kind, family uint32) {
	if family != 0 {
		b.appendFamilyKind(kind, family)
		return
	}
	b.data = append(b.data, byte(kind))
}

// appendFamilyKind appends the column-family kind byte of kind and the
// family id.
func (b *Batch) appendFamilyKind(kind base.Kind, family uint32) {
	b.data = append(b.data, familyKind(kind))
	b.data = binary.AppendUvarint(b.data, uint64(family))
	b.otherFamilies = true
}

// familyKind is the column-family kind byte of a plain kind.
func familyKind(kind base.Kind) byte {
	switch kind {
	case base.KindDelete:
		return batchKindFamilyDelete
	case base.KindSet:
		return batchKindFamilySet
	case base.KindMerge:
		return batchKindFamilyMerge
	case base.KindRangeDelete:
		return batchKindFamilyRangeDelete
	}
	panic(fmt.Sprintf("lsm: no column-family record kind for kind %d", kind))
}

// familyKindBase maps a column-family kind byte to its plain kind; ok is
// false for any other byte. The plain kinds (0, 1, 2, 15) fail its first
// comparison.
func familyKindBase(kind base.Kind) (plain base.Kind, ok bool) {
	if kind-batchKindFamilyDelete > batchKindFamilyRangeDelete-batchKindFamilyDelete {
		return kind, false
	}
	switch kind {
	case batchKindFamilyDelete:
		return base.KindDelete, true
	case batchKindFamilySet:
		return base.KindSet, true
	case batchKindFamilyMerge:
		return base.KindMerge, true
	case batchKindFamilyRangeDelete:
		return base.KindRangeDelete, true
	}
	return kind, false
}

// readFamilyID reads the family id of a column-family record.
func readFamilyID(b []byte) (family uint32, rest []byte, err error) {
	id, w := binary.Uvarint(b)
	if w <= 0 {
		return 0, nil, fmt.Errorf("%w: bad column family varint", ErrCorruptBatch)
	}
	if id > math.MaxUint32 {
		return 0, nil, fmt.Errorf("%w: column family %d out of range", ErrCorruptBatch, id)
	}
	return uint32(id), b[w:], nil
}
