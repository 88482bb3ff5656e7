package lsm

// pinsIndexAndFilter reports whether a reader of f opened now keeps the
// index and filter partitions of a partitioned table in itself, loaded
// once and never evicted, where cache_index_and_filter_blocks sends them
// through the block cache: RocksDB's pin_l0_filter_and_index_blocks_in_cache,
// which pins them for a table that is in level 0 when its reader opens
// and no larger than 1.5 write buffers (RocksDB's MaxFileSizeForL0MetaPin:
// a larger L0 table comes from an intra-L0 compaction). Unlike RocksDB's
// pinned blocks, these are not charged to the cache. A reader opened
// while the table was in level 0 stays as it is after a compaction moves
// the table down, as RocksDB's does.
func (db *DB) pinsIndexAndFilter(f *fileMeta) bool {
	o := db.opts
	return o.PinL0FilterAndIndexBlocksInCache && o.CacheIndexAndFilterBlocks &&
		f.inL0.Load() && f.size <= uint64(o.WriteBufferSize)/2*3
}
