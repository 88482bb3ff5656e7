package sst

// SetReadahead fixes the iterator's read-ahead at n bytes (RocksDB's
// ReadOptions.readahead_size, db_bench's --readahead_size, and
// compaction_readahead_size for compaction inputs): every read of a pair
// the iterator does not hold also reads the pairs after it that end
// within n bytes of its start, from the first read on, sequential or not.
// n <= 0 restores the adaptive window: from the second sequential read,
// minReadahead doubling up to maxReadahead, and one pair after a jump.
// Mapped tables are not read, so the setting does nothing for them.
func (t *Iter) SetReadahead(n int) {
	t.pair.fixed = max(n, 0)
}

// SetReadCharge sets fn to be called with the byte count of each read the
// iterator makes of the file, before it makes it: a rate limiter's gate
// (compaction reads under --rate_limit_bg_reads). Mapped tables are not
// read, so not charged. nil: no charge.
func (t *Iter) SetReadCharge(fn func(n int)) { t.pair.charge = fn }

// nextWindow is the read-ahead of the next read of a pair run: the fixed
// read-ahead, else the adaptive window's next size.
func (p *pairBuf) nextWindow() int {
	if p.fixed > 0 {
		return p.fixed
	}
	return min(max(2*p.window, minReadahead), maxReadahead)
}
