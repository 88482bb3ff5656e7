package sst

// ApproximateOffsetOf returns the file offset at which the entries of key
// would start: the offset of the first data block whose separator is >=
// key, or the end of the data blocks when key is past every block. It reads
// only the index the Reader holds, so it does no I/O, except for an index
// partition that goes through the block cache (partitioncache.go). RocksDB's
// TableReader::ApproximateOffsetOf answers the same question the same way
// (the index entry's block offset), which is what GetApproximateSizes sums.
func (r *Reader) ApproximateOffsetOf(key []byte) uint64 {
	n := r.blocks.len()
	if n == 0 {
		return 0
	}
	// A partition that fails to load leaves its first block's offset.
	if i, _ := r.seekBlock(key); i < n {
		return r.blocks.at(i).offset
	}
	return r.pairEnd(n - 1)
}
