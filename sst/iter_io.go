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

// capFor is the capacity of a new buffer for a read of size bytes, when
// the buffer holds less than size or maxPair (the longest pair). A read
// that has grown the adaptive window past its first step is part of a
// scan that will take the window to its maximum, so its buffer gets the
// maximum now; any other read gets what it needs.
//
// Why: doubled one step at a time, a new iterator's buffer was made five
// times (16, 32, 64, 128 and 256 KiB, 496 KiB in all) on its way to the
// largest window, each new buffer zeroed, its pages touched for the first
// time. On the 2-vCPU build machine a first-touched page costs 7-10 µs
// (a Go program touching 128 MiB of new 64 KiB buffers: 7.2-10.1 µs a
// page), so eight readseq threads over two levels paid about 2,400 page
// faults, 17-33 ms of CPU, in a 0.08 s benchmark: the first readseq of a
// process ran at 13-16M entries/s and the next at 20-25M. A scan that
// reads ahead once still takes a buffer of the first step's size.
func (p *pairBuf) capFor(size, maxPair int) int {
	n := max(size, maxPair)
	if p.window > minReadahead {
		limit := maxReadahead
		if p.fixed > 0 {
			limit = p.fixed
		}
		n = max(n, limit)
	}
	return n
}
