package sst

// fillMode says what decodeBlock does with a block missing from the cache.
type fillMode uint8

const (
	// fillNone decodes it into the caller's buffer (fill_cache off).
	fillNone fillMode = iota
	// fillAdmit caches it when the cache admits it (cache_admission.go).
	fillAdmit
	// fillReserve caches it whenever a slot can be had: the admission
	// was decided for it already (loadPairedValue). A block read ahead by
	// a scan is still only admitted (the scan rule).
	fillReserve
	// fillSpare caches it only while its shard has room: a block an
	// iterator loads alone, outside the admission sample (Iter.fillFor).
	fillSpare
)

// holds reports whether p holds the stored bytes of pair i.
func (p *pairBuf) holds(i int) bool {
	return p.set && p.first <= i && i <= p.last
}

// loadPairedValue is loadBlock for the value block of pair i right after
// the pair was read from the file for its key block (pair.holds(i)): the
// value block's bytes are in hand, so the cache is searched for them only
// when the key block was just cached (keyCached), and they are cached
// exactly when the key block was, with no second admission decision.
//
// A Get reads the value block of the pair whose key block holds its key,
// so the two are wanted together: the key block missed the cache, and its
// value block is then cached only when one of the rare admissions that
// outlived its key block's eviction put it there. At db_bench's defaults
// (8 MiB of cache, 60 MB of tables) the search and the second doorkeeper
// probe were a twentieth of readrandom's CPU, nearly always in vain. When
// the key block was cached, the value block is about to be, so the search
// is made then: a copy that outlived its key block is used, not cached
// twice. A block read ahead by a scan keeps the scan rule in decodeBlock:
// the two blocks may lie in shards of which only one is full.
func (r *Reader) loadPairedValue(i int, dst, tmp *[]byte, pair *pairBuf, keyCached bool) ([]byte, cacheHandle, error) {
	d := r.blocks.at(i)
	off := d.valueOffset()
	bit := 2*i + 1
	fill := fillNone
	if keyCached {
		if h, b, ok := r.cache.lookup(r.opts.FileNum, off, &r.hints[bit]); ok {
			r.countCacheLookup(true, len(b))
			return b, h, nil
		}
		// Not counted as a miss: the pair read was the one miss.
		fill = fillReserve
	}
	raw, err := r.readPair(pair, i, off, d.valueLen)
	if err != nil {
		return nil, cacheHandle{}, err
	}
	if err := r.checkBlock(raw, handle{off, d.valueLen}); err != nil {
		return nil, cacheHandle{}, err
	}
	return r.decodeBlock(raw, off, d.valueLen, bit, dst, tmp, pair, fill, false)
}
