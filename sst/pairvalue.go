package sst

// fillMode says what decodeBlock does with a block missing from the cache.
type fillMode uint8

const (
	// fillNone decodes it into the caller's buffer (fill_cache off).
	fillNone fillMode = iota
	// fillAdmit caches it when the cache admits it (cache_admission.go).
	fillAdmit
	// fillReserve caches it whenever a slot can be had: the admission
	// was decided for it already (loadPairedValue).
	fillReserve
)

// fillModeOf is the mode of RocksDB's fill_cache flag.
func fillModeOf(fill bool) fillMode {
	if fill {
		return fillAdmit
	}
	return fillNone
}

// holds reports whether p holds the stored bytes of pair i.
func (p *pairBuf) holds(i int) bool {
	return p.set && p.first <= i && i <= p.last
}

// loadPairedValue is loadBlock for the value block of pair i right after
// the pair was read from the file for its key block (pair.holds(i)): the
// value block's bytes are in hand, so the cache is not searched for them,
// and they are cached exactly when the key block was (keyCached), with no
// second admission decision.
//
// A Get reads the value block of the pair whose key block holds its key,
// so the two are wanted together: the key block missed the cache, and its
// value block is then cached only when one of the rare admissions that
// outlived its key block's eviction put it there. At db_bench's defaults
// (8 MiB of cache, 60 MB of tables) the search and the second doorkeeper
// probe were a twentieth of readrandom's CPU, nearly always in vain. A
// value block cached meanwhile is found by the publish, which then keeps
// the cached copy (Cache.publish); the bytes returned are the same.
func (r *Reader) loadPairedValue(i int, dst, tmp *[]byte, pair *pairBuf, keyCached bool) ([]byte, cacheHandle, error) {
	d := &r.blocks[i]
	off := d.valueOffset()
	raw, err := r.readPair(pair, i, off, d.valueLen)
	if err != nil {
		return nil, cacheHandle{}, err
	}
	if err := r.checkBlock(raw, handle{off, d.valueLen}); err != nil {
		return nil, cacheHandle{}, err
	}
	fill := fillNone
	if keyCached {
		fill = fillReserve
	}
	return r.decodeBlock(raw, off, d.valueLen, 2*i+1, dst, tmp, pair, fill, false)
}
