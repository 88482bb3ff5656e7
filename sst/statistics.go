package sst

import "github.com/godbbench/godbbench/internal/statistics"

// This file counts a Reader's work in RocksDB's tickers when
// ReaderOptions.Statistics is set: block cache lookups and additions (all
// of data blocks, and of index and filter partitions read with
// ReaderOptions.CacheIndexAndFilterBlocks), and the bloom filter's
// verdicts on point lookups. Each
// hook is a nil check small enough to be inlined, so that statistics off
// cost that check alone; the counting is in a function of its own.

// countCacheLookup counts a block cache lookup: a hit handing out n bytes,
// or a miss.
func (r *Reader) countCacheLookup(hit bool, n int) {
	if s := r.opts.Statistics; s != nil {
		countCacheLookup(s, hit, n)
	}
}

func countCacheLookup(s *statistics.Statistics, hit bool, n int) {
	if hit {
		s.Add(statistics.BlockCacheHit, 1)
		s.Add(statistics.BlockCacheDataHit, 1)
		s.Add(statistics.BlockCacheBytesRead, uint64(n))
		return
	}
	s.Add(statistics.BlockCacheMiss, 1)
	s.Add(statistics.BlockCacheDataMiss, 1)
}

// countCacheAdd counts a block of n bytes added to the block cache.
func (r *Reader) countCacheAdd(n int) {
	if s := r.opts.Statistics; s != nil {
		countCacheAdd(s, n)
	}
}

func countCacheAdd(s *statistics.Statistics, n int) {
	s.Add(statistics.BlockCacheAdd, 1)
	s.Add(statistics.BlockCacheDataAdd, 1)
	s.Add(statistics.BlockCacheDataBytesInsert, uint64(n))
	s.Add(statistics.BlockCacheBytesWrite, uint64(n))
}

// metaKind says which of RocksDB's per-kind cache tickers a partition's
// lookup or addition moves.
type metaKind uint8

const (
	metaIndex metaKind = iota
	metaFilter
)

// metaTickers are the miss, hit, add and bytes-insert tickers per metaKind.
var metaTickers = [2][4]statistics.Ticker{
	metaIndex:  {statistics.BlockCacheIndexMiss, statistics.BlockCacheIndexHit, statistics.BlockCacheIndexAdd, statistics.BlockCacheIndexBytesInsert},
	metaFilter: {statistics.BlockCacheFilterMiss, statistics.BlockCacheFilterHit, statistics.BlockCacheFilterAdd, statistics.BlockCacheFilterBytesInsert},
}

// countMetaCacheLookup counts a block cache lookup of an index or filter
// partition: a hit handing out n bytes, or a miss.
func (r *Reader) countMetaCacheLookup(kind metaKind, hit bool, n int) {
	s := r.opts.Statistics
	if s == nil {
		return
	}
	if hit {
		s.Add(statistics.BlockCacheHit, 1)
		s.Add(metaTickers[kind][1], 1)
		s.Add(statistics.BlockCacheBytesRead, uint64(n))
		return
	}
	s.Add(statistics.BlockCacheMiss, 1)
	s.Add(metaTickers[kind][0], 1)
}

// countMetaCacheAdd counts an index or filter partition of n bytes added
// to the block cache.
func (r *Reader) countMetaCacheAdd(kind metaKind, n int) {
	if s := r.opts.Statistics; s != nil {
		s.Add(statistics.BlockCacheAdd, 1)
		s.Add(metaTickers[kind][2], 1)
		s.Add(metaTickers[kind][3], uint64(n))
		s.Add(statistics.BlockCacheBytesWrite, uint64(n))
	}
}

// countFilter counts the filter's verdict on a point lookup and returns
// it: useful when it rules the key out, a positive otherwise.
func (r *Reader) countFilter(mayContain bool) bool {
	if s := r.opts.Statistics; s != nil {
		countFilter(s, mayContain)
	}
	return mayContain
}

func countFilter(s *statistics.Statistics, mayContain bool) {
	if mayContain {
		s.Add(statistics.BloomFilterFullPositive, 1)
	} else {
		s.Add(statistics.BloomFilterUseful, 1)
	}
}

// countFilterFound counts a point lookup the filter let through that found
// the key: a true positive.
func (r *Reader) countFilterFound(found bool) {
	if s := r.opts.Statistics; s != nil && found && r.hasFilter {
		s.Add(statistics.BloomFilterFullTruePositive, 1)
	}
}

// countPrefixFilter counts a prefix probe of the filter by a seek and
// returns its verdict: checked always, useful when it rules the prefix
// out.
func (r *Reader) countPrefixFilter(mayContain bool) bool {
	if s := r.opts.Statistics; s != nil {
		countPrefixFilter(s, mayContain)
	}
	return mayContain
}

func countPrefixFilter(s *statistics.Statistics, mayContain bool) {
	s.Add(statistics.BloomFilterPrefixChecked, 1)
	if !mayContain {
		s.Add(statistics.BloomFilterPrefixUseful, 1)
	}
}
