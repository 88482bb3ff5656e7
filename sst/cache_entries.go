package sst

// CacheEntries is a count of the blocks a Cache holds, for RocksDB's
// "rocksdb.block-cache-entry-stats" property. Every entry of this cache is
// a data block (a key block or a value block): a table's index, filter and
// properties are kept by its Reader, not in the cache.
type CacheEntries struct {
	// DataBlocks counts the blocks lookups can find, and DataBytes their
	// charge: the size of the slot each occupies.
	DataBlocks int
	DataBytes  int64
	// Slots counts the slots of the slabs handed out so far, live or not:
	// the cache's table size.
	Slots int
}

// Entries walks every shard under its read lock and counts what it holds.
// It costs a pass over the cache's index and is meant for reports, not for
// hot paths.
func (c *Cache) Entries() CacheEntries {
	var e CacheEntries
	if c == nil {
		return e
	}
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.RLock()
		s.table.each(func(id int32) {
			e.DataBlocks++
			e.DataBytes += int64(slotClasses[s.slabs[id/slotsPerSlabMax].class])
		})
		for j := range s.slabs {
			e.Slots += len(s.slabs[j].meta)
		}
		s.mu.RUnlock()
	}
	return e
}
