package sst

import (
	"bytes"
	"encoding/binary"
	"runtime/debug"
	"sync/atomic"

	"github.com/godbbench/godbbench/internal/bloom"
	"github.com/godbbench/godbbench/internal/mmapfault"
)

// Partitions through the block cache. With ReaderOptions.CacheIndexAndFilterBlocks
// and a Cache, a Reader of a partitioned table (format version 3) keeps
// only the top levels: the last separator and the handle of every index
// partition, the handle of every filter partition, and the data block
// handles (which number the blocks for the cache hints and checksum bits).
// The separators of a partition and the filter partitions are loaded
// through the block cache when a lookup needs them, charged to its
// capacity and evicted like data blocks, as RocksDB's partitioned readers
// do under cache_index_and_filter_blocks; they count in RocksDB's
// rocksdb.block.cache.index.* and rocksdb.block.cache.filter.* tickers.
//
// Open still reads and checks every index partition once, to number the
// data blocks; filter partitions are first read by the lookup that needs
// them, so a damaged filter partition is an ErrCorruption error from Get,
// not from Open. A partition missing from the cache is read into a new
// buffer (one allocation per miss, beside the read itself).
//
// An index partition is cached decoded, so that a lookup binary searches
// it in place: u32 end offset of each separator (relative to the first
// separator), then the separators back to back. A filter partition is
// cached as stored.

// lazyPartitions is what a Reader keeps of a partitioned table whose
// partitions go through the cache.
type lazyPartitions struct {
	// topSeps holds the partitions' last separators: partition p's is
	// topSeps[topEnds[p-1]:topEnds[p]].
	topSeps []byte
	topEnds []uint32
	index   []handle // index partitions
	filter  []handle // filter partitions; nil without partitioned filters
	// hints are the cache slot hints: 2p for index partition p, 2p+1 for
	// filter partition p (Cache.lookup).
	hints []atomic.Int32
}

// topSep returns the last separator of partition p.
func (l *lazyPartitions) topSep(p int) []byte {
	start := uint32(0)
	if p > 0 {
		start = l.topEnds[p-1]
	}
	return l.topSeps[start:l.topEnds[p]]
}

// goLazy switches a Reader that decoded a partitioned index in full to
// keep only its top level (with the separators' shared prefix and the
// partitions' prefixes), freeing the separators; index holds the index
// partitions' handles.
func (r *Reader) goLazy(index []handle) {
	l := &lazyPartitions{index: index, hints: make([]atomic.Int32, 2*len(index))}
	l.topEnds = make([]uint32, len(index))
	for p, end := range r.partEnd {
		l.topSeps = append(l.topSeps, r.separator(end-1)...)
		l.topEnds[p] = uint32(len(l.topSeps))
	}
	r.lazy = l
	r.sepCommon = bytes.Clone(r.sepCommon)
	r.seps, r.sepEnds, r.sepPrefix = nil, nil, nil
}

// partitionStart returns the first data block of partition p.
func (r *Reader) partitionStart(p int) int {
	if p == 0 {
		return 0
	}
	return r.partEnd[p-1]
}

// partitionLast returns the last separator of partition p.
func (r *Reader) partitionLast(p int) []byte {
	if r.lazy != nil {
		return r.lazy.topSep(p)
	}
	return r.separator(r.partEnd[p] - 1)
}

// seekBlock is findBlock for every Reader: on one whose partitions go
// through the cache it searches the top level, then the partition. On an
// error loading the partition it returns the partition's first block with
// the error.
func (r *Reader) seekBlock(key []byte) (int, error) {
	if r.lazy == nil {
		return r.findBlock(key), nil
	}
	p := r.seekPartition(key)
	if p == len(r.partEnd) {
		return r.blocks.len(), nil
	}
	return r.blockInPartition(p, key)
}

// seekPartition returns the first partition whose last separator is >=
// key: the one whose blocks findBlock would search (len(r.partEnd) if
// none).
func (r *Reader) seekPartition(key []byte) int {
	return r.searchPrefixes(r.partPrefix, key, true)
}

// blockInPartition is findBlock for a key that seekPartition placed in
// partition p.
func (r *Reader) blockInPartition(p int, key []byte) (int, error) {
	if r.lazy == nil {
		return r.findBlock(key), nil
	}
	start := r.partitionStart(p)
	b, h, err := r.indexPartition(p)
	if err != nil {
		return start, err
	}
	n := r.partEnd[p] - start
	seps := b[4*n:]
	sepAt := func(j int) []byte {
		from := uint32(0)
		if j > 0 {
			from = binary.LittleEndian.Uint32(b[4*(j-1):])
		}
		return seps[from:binary.LittleEndian.Uint32(b[4*j:])]
	}
	i, j := 0, n
	for i < j {
		m := int(uint(i+j) >> 1)
		if bytes.Compare(sepAt(m), key) < 0 {
			i = m + 1
		} else {
			j = m
		}
	}
	h.release()
	return start + i, nil
}

// indexPartition returns index partition p decoded (see above), from the
// cache or read and added to it; the handle pins it until released.
func (r *Reader) indexPartition(p int) (_ []byte, _ cacheHandle, err error) {
	l := r.lazy
	hint, ph := &l.hints[2*p], l.index[p]
	if ch, b, ok := r.cache.lookup(r.opts.FileNum, ph.Offset, hint); ok {
		r.countMetaCacheLookup(metaIndex, true, len(b))
		return b, ch, nil
	}
	r.countMetaCacheLookup(metaIndex, false, 0)
	if r.mapped != nil {
		defer mmapfault.Catch(debug.SetPanicOnFault(true), &err)
	}
	raw, err := r.readIndexBlock(ph)
	if err != nil {
		return nil, cacheHandle{}, err
	}
	n := r.partEnd[p] - r.partitionStart(p)
	size, ok := decodedPartitionSize(raw, n)
	if !ok {
		return nil, cacheHandle{}, corruptf(r.name, ph.Offset, "index partition %d does not decode", p)
	}
	ch, b, cached := r.cache.reserve(r.opts.FileNum, ph.Offset, size)
	if !cached {
		b = make([]byte, size)
	}
	fillDecodedPartition(b, raw, n)
	if cached {
		r.cache.publish(ch, hint)
		r.countMetaCacheAdd(metaIndex, size)
	}
	return b, ch, nil
}

// nextIndexEntry splits the separator off the encoded index entry at the
// start of b and skips its three block handle uvarints.
func nextIndexEntry(b []byte) (sep, rest []byte, ok bool) {
	l, k := binary.Uvarint(b)
	if k <= 0 || l > uint64(len(b)-k) {
		return nil, nil, false
	}
	sep, b = b[k:k+int(l)], b[k+int(l):]
	for range 3 {
		if _, k = binary.Uvarint(b); k <= 0 {
			return nil, nil, false
		}
		b = b[k:]
	}
	return sep, b, true
}

// decodedPartitionSize returns the size of index partition raw (n
// entries) decoded; ok is false when it does not hold n entries.
func decodedPartitionSize(raw []byte, n int) (int, bool) {
	count, k := binary.Uvarint(raw)
	if k <= 0 || count != uint64(n) {
		return 0, false
	}
	b, size := raw[k:], 4*n
	for range n {
		sep, rest, ok := nextIndexEntry(b)
		if !ok {
			return 0, false
		}
		size += len(sep)
		b = rest
	}
	return size, len(b) == 0
}

// fillDecodedPartition decodes index partition raw of n entries into b,
// sized by decodedPartitionSize.
func fillDecodedPartition(b, raw []byte, n int) {
	_, k := binary.Uvarint(raw)
	raw = raw[k:]
	end := 0
	for j := range n {
		sep, rest, _ := nextIndexEntry(raw)
		end += copy(b[4*n+end:], sep)
		binary.LittleEndian.PutUint32(b[4*j:], uint32(end))
		raw = rest
	}
}

// filterPartition returns filter partition p: the Reader's own, or from
// the cache, read and added to it; the handle pins it until released.
func (r *Reader) filterPartition(p int) (_ bloom.Filter, _ cacheHandle, err error) {
	l := r.lazy
	if l == nil {
		return r.filterParts[p], cacheHandle{}, nil
	}
	hint, ph := &l.hints[2*p+1], l.filter[p]
	if ch, b, ok := r.cache.lookup(r.opts.FileNum, ph.Offset, hint); ok {
		r.countMetaCacheLookup(metaFilter, true, len(b))
		if f, ok := decodeBloom(b); ok {
			return f, ch, nil
		}
		ch.release()
		return bloom.Filter{}, cacheHandle{}, corruptf(r.name, ph.Offset, "malformed filter partition %d", p)
	}
	r.countMetaCacheLookup(metaFilter, false, 0)
	if r.mapped != nil {
		defer mmapfault.Catch(debug.SetPanicOnFault(true), &err)
	}
	raw, err := r.readMetaBlock(ph)
	if err != nil {
		return bloom.Filter{}, cacheHandle{}, err
	}
	if _, ok := decodeBloom(raw); !ok {
		return bloom.Filter{}, cacheHandle{}, corruptf(r.name, ph.Offset, "malformed filter partition %d", p)
	}
	ch, b, cached := r.cache.reserve(r.opts.FileNum, ph.Offset, len(raw))
	if !cached {
		f, _ := decodeBloom(raw)
		return f, cacheHandle{}, nil
	}
	copy(b, raw)
	r.cache.publish(ch, hint)
	r.countMetaCacheAdd(metaFilter, len(b))
	f, _ := decodeBloom(b)
	return f, ch, nil
}

// partitionMayContain probes filter partition p with the filter key
// probe.
func (r *Reader) partitionMayContain(p int, probe []byte) (bool, error) {
	f, h, err := r.filterPartition(p)
	if err != nil {
		return true, err
	}
	may := f.MayContain(hashKey(probe))
	h.release()
	return may, nil
}
