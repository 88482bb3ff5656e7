package base

// Kind is the type of an entry, numbered as RocksDB's ValueType. It is the
// low byte of a Trailer, the kind byte of a batch record, and part of every
// table entry's stored trailer, so the numbers are on-disk values.
type Kind uint8

const (
	// KindDelete marks a deletion tombstone (RocksDB kTypeDeletion).
	KindDelete Kind = 0
	// KindSet marks a value (RocksDB kTypeValue).
	KindSet Kind = 1
	// KindMerge marks a merge operand (RocksDB kTypeMerge): the entry's
	// value is applied by the DB's merge operator to the older versions of
	// its key.
	KindMerge Kind = 2
	// KindRangeDelete marks a range tombstone (RocksDB
	// kTypeRangeDeletion): a batch record whose key is the range's start
	// and whose value is its (exclusive) end. Memtables and tables keep
	// range tombstones apart from point entries, so no point entry has
	// this kind and Valid rejects it.
	KindRangeDelete Kind = 0x0f
	// KindBlobIndex marks a value kept in a blob file (RocksDB
	// kTypeBlobIndex): the entry's value is a blob index naming the file,
	// offset, size and compression of the value (package lsm's
	// blob_index.go). Only tables hold it; reads resolve it to the value.
	KindBlobIndex Kind = 0x11
	// KindMax is the largest kind number a trailer can hold. A search
	// trailer for "every version at or below seq" uses it (SeekTrailer):
	// it sorts before every real kind of the same sequence.
	KindMax Kind = 0xff
)

// Valid reports whether k is a kind entries are written with.
func (k Kind) Valid() bool {
	return k == KindDelete || k == KindSet || k == KindMerge || k == KindBlobIndex
}
