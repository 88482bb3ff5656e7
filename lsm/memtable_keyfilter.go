package lsm

// The default memtable key filter. db_bench's default
// memtable_bloom_size_ratio is 0, under which RocksDB searches every
// memtable on each Get: a skip-list descent through the whole memtable
// that, at db_bench's defaults after overwrite, is a sixth of a Get's CPU
// and finds nothing for most keys, which live in the tables.
//
// The native engine gives each memtable a whole-key memBloom
// (memtable_bloom.go) whenever neither the ratio nor a prefix extractor
// asks for a filter of RocksDB's: defaultMemKeyFilterRatio of
// write_buffer_size, in bytes. Answers are the same with or without it (a
// filter only skips memtables that cannot hold the key); it costs a hash
// and six bit tests per write and per Get, and the filter's memory. At
// db_bench's defaults (64 MiB buffer, 16-byte keys, 100-byte values,
// about 473,000 entries per memtable) that is 640 KiB per memtable, about
// 11 bits per entry. Measured in docs/BENCHMARKS.md (issue 18, the default
// memtable key filter).
//
// With the default filter, a memtable whose rep implements memtable.Pointed
// (the skip list) also gets a point index (memtable_points.go), which a Get
// the filter lets through asks for the key's entry instead of searching
// the rep: from the start when the DB served a Get that searched the
// memtables since the previous memtable was made, else built (a walk of
// the rep, on a goroutine of its own) when a Get first searches it as its
// family's mutable memtable. The index costs each write about 60-80 ns
// (BenchmarkMemtableAdd), which a run of writes alone (fillseq,
// fillrandom) would pay for nothing. Both count in the memtable's memory.

// defaultMemKeyFilterRatio is the default filter's size as a share of
// write_buffer_size.
const defaultMemKeyFilterRatio = 0.01

// defaultMemKeyFilterBits is the size in bits of the default whole-key
// filter of a memtable of writeBufferSize bytes.
func defaultMemKeyFilterBits(writeBufferSize int64) uint64 {
	return uint64(float64(writeBufferSize)*defaultMemKeyFilterRatio) * 8
}
