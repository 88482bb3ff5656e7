package lsm

import (
	"github.com/godbbench/godbbench/internal/statistics"
	"github.com/godbbench/godbbench/rtable"
	"github.com/godbbench/godbbench/sst"
)

// Prefix seeks. With a prefix extractor (prefix.go), an iterator made with
// IterOptions.PrefixSameAsStart is bounded, after each SeekGE or SeekLE to
// a key in the extractor's domain, to the keys sharing that key's prefix
// (RocksDB's prefix_same_as_start): Next and Prev stop at the prefix's
// ends. First, Last, SeekLT and a seek to a key outside the domain walk
// in total order within the iterator's own bounds.
//
// Such a SeekGE also asks every source whether it may hold the prefix, and
// leaves out a source that cannot (mergingIter.prefix): a memtable whose
// bloom filter rules the prefix out, an L0 table whose filter does, and in
// a sorted level the tables whose filters do, up to the first one that
// may hold it. IterOptions.TotalOrderSeek turns the filters off and keeps
// the bounds. IterOptions.AutoPrefix (RocksDB's auto_prefix_mode) uses the
// filters for a SeekGE whenever the iterator's upper bound keeps the walk
// inside the seek key's prefix, which gives the same results as a total
// order seek. Without either, a seek walks in total order and probes no
// prefix filter: where RocksDB leaves results outside the prefix
// undefined, this DB returns the total-order ones.

// prefixSeekOptions are an Iterator's prefix settings and the storage of
// the bounds of its current prefix.
type prefixSeekOptions struct {
	sameAsStart bool // bound seeks to the seek key's prefix
	totalOrder  bool // never probe prefix filters
	auto        bool // probe them when the upper bound allows
	// userLower and userUpper are the iterator's own bounds; lower and
	// upper are the current prefix's (storage for Iterator.lower/upper).
	userLower, userUpper []byte
	lower, upper         []byte
	// lowerBuf and upperBuf back lower and upper for prefixes of up to
	// 16 bytes, so that an iterator made per seek allocates no bounds.
	lowerBuf, upperBuf [16]byte
}

// setPrefixOptions records o's prefix settings on it (NewIter).
func (it *dbIter) setPrefixOptions(o *IterOptions) {
	p := &it.prefixOpts
	p.sameAsStart = o.PrefixSameAsStart && it.db.prefix > 0
	p.totalOrder = o.TotalOrderSeek
	p.auto = o.AutoPrefix && it.db.prefix > 0
	p.userLower, p.userUpper = it.lower, it.upper
	p.lower, p.upper = p.lowerBuf[:0], p.upperBuf[:0]
}

// beginSeek sets the iterator's bounds and its merge's filter prefix for
// a seek to key (forward: SeekGE; else a backward seek, which probes no
// filter). Positionings other than seeks pass a nil key.
func (it *dbIter) beginSeek(key []byte, forward bool) {
	p := &it.prefixOpts
	if !p.sameAsStart && !p.auto {
		return
	}
	it.lower, it.upper, it.m.prefix = p.userLower, p.userUpper, nil
	if key == nil || !it.db.prefix.inDomain(key) {
		return
	}
	prefix := it.db.prefix.of(key)
	if p.sameAsStart {
		p.lower = append(p.lower[:0], prefix...)
		if it.lower == nil || compareKeys(p.lower, it.lower) > 0 {
			it.lower = p.lower
		}
		var ok bool
		if p.upper, ok = appendSuccessor(p.upper[:0], prefix); ok && (it.upper == nil || compareKeys(p.upper, it.upper) < 0) {
			it.upper = p.upper
		}
		if forward && !p.totalOrder {
			it.m.prefix = p.lower
		}
		return
	}
	// auto_prefix_mode: the filter may answer when no key at or above
	// the prefix's successor is in bounds.
	if forward && it.upper != nil {
		succ, ok := appendSuccessor(p.upper[:0], prefix)
		p.upper = succ
		if !ok || compareKeys(it.upper, succ) <= 0 {
			p.lower = append(p.lower[:0], prefix...)
			it.m.prefix = p.lower
		}
	}
}

// appendSuccessor appends to dst the smallest key above every key with
// prefix: prefix with its trailing 0xff bytes dropped and its last byte
// incremented. ok is false when prefix is all 0xff (no such key).
func appendSuccessor(dst, prefix []byte) ([]byte, bool) {
	n := len(prefix)
	for n > 0 && prefix[n-1] == 0xff {
		n--
	}
	if n == 0 {
		return dst, false
	}
	dst = append(dst, prefix[:n]...)
	dst[len(dst)-1]++
	return dst, true
}

// seekGEPrefixed is child c's SeekGE(key) within a prefix seek: false at
// once when c cannot hold prefix.
func seekGEPrefixed(c internalIter, key, prefix []byte) bool {
	switch c := c.(type) {
	case *memIter:
		if c.bloom != nil && !c.bloom.mayContain(prefix) {
			c.valid = false
			return false
		}
	case *tableIter:
		if !c.it.MayContainPrefix(prefix) {
			c.it.Exhaust() // no error of an earlier seek left for init
			return false
		}
	case *levelIter:
		return c.seekGEPrefixed(key, prefix)
	}
	return c.SeekGE(key)
}

// seekGEPrefixed is SeekGE(key) past the tables of the level whose filters
// rule prefix out, up to the first table that may hold it or whose keys
// go beyond the prefix.
func (l *levelIter) seekGEPrefixed(key, prefix []byte) bool {
	l.err = nil
	l.seekHit = nil // a table its filter rules out costs the seek no read
	p := prefixExtractor(len(prefix))
	for i := findFile(l.files, key); i < len(l.files); i++ {
		f := l.files[i]
		if !p.samePrefix(f.smallest, prefix) && compareKeys(f.smallest, prefix) > 0 {
			break // the table starts beyond the prefix
		}
		t, err := l.db.tableReader(f)
		if err != nil {
			l.err = err
			return false
		}
		may := l.db.tableMayContainPrefix(t, prefix)
		l.db.releaseTable(t)
		if may {
			l.noteSeek(i, key)
			if !l.open(i) {
				return false
			}
			return l.forward(l.cur.SeekGE(key))
		}
		if !p.samePrefix(f.largest, prefix) {
			break // the prefix's keys would all be in this table
		}
	}
	l.open(len(l.files))
	return false
}

// tableMayContainPrefix asks t's filter whether t may hold prefix. An
// sst reader counts its probes in the prefix tickers; an rtable reader
// has no statistics, so its probes are counted here.
func (db *DB) tableMayContainPrefix(t *openTable, prefix []byte) bool {
	switch r := t.tableReader.(type) {
	case *sst.Reader:
		return r.MayContainPrefix(prefix)
	case *rtable.Reader:
		may, probed := r.MayContainPrefix(prefix)
		if s := db.tickers; probed && s != nil {
			s.Add(statistics.BloomFilterPrefixChecked, 1)
			if !may {
				s.Add(statistics.BloomFilterPrefixUseful, 1)
			}
		}
		return may
	}
	return true
}
