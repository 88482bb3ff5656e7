package lsm

// The native engine's table default filter. db_bench's --bloom_bits < 0
// leaves the filter to "the table default": RocksDB's and Pebble's tables
// then have none. The native engine's default is a whole-key Bloom filter
// of l0FilterBitsPerKey bits per key on the tables it writes to L0
// (flushes, and compactions whose output level is 0) and no filter on any
// other level. --bloom_bits=0 writes no filter anywhere, and a positive
// --bloom_bits a filter of that many bits per key on every level, as in
// RocksDB.
//
// Why L0 alone: a point lookup searches every L0 table whose key range
// covers its key, newest first, and flushes of random keys each cover
// nearly the whole key space, so beside a writer a lookup that misses the
// memtables reads a data block from each of one to four L0 tables (a pread
// and a decompression when db_bench's 8 MiB cache misses) before the one
// table per deeper level. L0 holds a few write buffers' worth of keys, so
// its filters are small: at db_bench's defaults (about 500,000 entries a
// flush) 610 KiB a table, pinned with the table's index. A filter on L1 as
// well measured little more for reads and cost about 30 MB more peak RSS
// at 10M keys (docs/BENCHMARKS.md, "A filter on L0 tables by default").
//
// A table keeps the filter it was written with when a trivial move takes
// it below L0; lookups consult it there as any filter.

// l0FilterBitsPerKey is the default filter's bits per key (about 1%
// false positives).
const l0FilterBitsPerKey = 10

// applyL0FilterDefault gives L0's tables the default filter when
// bloomBits asks for the table default. It runs before the prefix options,
// which may then turn the filter into a prefix filter or drop it.
func (db *DB) applyL0FilterDefault(bloomBits int) {
	if bloomBits < 0 && len(db.tableOpts) > 0 {
		db.tableOpts[0].BloomBitsPerKey = l0FilterBitsPerKey
	}
}
