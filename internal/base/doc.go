// Package base is the native engine's key vocabulary, shared by the
// memtables (memtable/...), the table format (sst) and the LSM (lsm): the
// kind of an entry, the sequence number, the trailer that packs the two,
// and the order of internal keys.
//
// Contract:
//   - An internal key is a user key (any bytes) plus a trailer. Internal
//     keys are ordered by user key ascending (bytewise, shorter first on a
//     common prefix), then trailer descending, so the newest version of a
//     user key comes first (RocksDB's InternalKeyComparator).
//   - A trailer is seq<<8 | kind: the sequence number in the high 56 bits,
//     the kind in the low 8 (RocksDB's PackSequenceAndType). Stored as 8
//     bytes it is little endian (see Trailer).
//   - Nothing here allocates or takes a lock.
package base
