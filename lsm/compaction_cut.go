package lsm

// outputCutter decides where a compaction ends one output table and
// starts the next, as RocksDB 7.8's level compaction does with its default
// level_compaction_dynamic_file_size: an output ends when it reaches the
// target size, and also, where a key crosses a boundary of a table one
// level below the output (a grandparent),
//   - when the output and the grandparents it overlaps would pass
//     max_compaction_bytes, so no later compaction of it grows past that;
//   - when the key skips a whole grandparent of more than an eighth of the
//     target size, so that table is in neither output's range and a later
//     compaction of either leaves it alone;
//   - when the output has reached half the target size, plus 5% for every
//     boundary it has crossed (at most 90%), so outputs tend to end where
//     grandparents do.
//
// Cutting at grandparent boundaries is what keeps a later compaction of an
// output from rewriting more of the level below than it must: an output of
// random keys that ends just past a grandparent's first key drags that
// whole grandparent into its next compaction. Outputs to level 0 are never
// cut (a nil cutter), as in RocksDB.
type outputCutter struct {
	target       uint64      // target output size (> 0)
	maxBytes     uint64      // max_compaction_bytes
	grandparents []*fileMeta // the tables below the output overlapping the compaction, in key order
	dynamic      bool        // leveled style: the skip and early cuts apply

	next    int    // the grandparent the last key lay in, or the next one after it
	inGap   bool   // the last key lay before grandparents[next], in no grandparent
	seen    bool   // a key has been seen
	overlap uint64 // bytes of the grandparents the current output overlaps
	crossed int    // grandparent boundaries the current output has crossed
}

// newOutputCutter returns the cutter of a compaction of family f's current
// version into outputLevel over [smallest, largest] (DB.mu held), or nil
// when the outputs are never cut (level 0).
func (db *DB) newOutputCutter(f *family, outputLevel int, smallest, largest []byte) *outputCutter {
	if outputLevel == 0 {
		return nil
	}
	c := &outputCutter{target: db.targetFileSize(outputLevel), inGap: true}
	c.maxBytes = db.opts.MaxCompactionBytes
	if c.maxBytes == 0 {
		// RocksDB's sanitized default: 25 target files of the base level.
		c.maxBytes = uint64(max(db.opts.TargetFileSizeBase, 0)) * 25
	}
	if db.opts.CompactionStyle != styleLevel {
		// Universal and FIFO compactions cut at the target size only
		// (RocksDB gives them no grandparents).
		return c
	}
	c.dynamic = true
	if v := f.current; outputLevel+1 < len(v.levels) {
		c.grandparents = v.overlapping(outputLevel+1, smallest, largest)
	}
	return c
}

// advance moves past the grandparent boundaries before key, the next key
// of the compaction in order, and returns how many it crossed.
func (c *outputCutter) advance(key []byte) int {
	crossed := 0
	gp := c.grandparents
	for c.next < len(gp) {
		if c.inGap {
			if compareKeys(key, gp[c.next].smallest) < 0 {
				break
			}
			if c.seen {
				crossed++
				c.overlap += gp[c.next].size
			}
			c.inGap = false
			continue
		}
		// A key that is the largest of one grandparent and the smallest of
		// the next lies in the later one.
		cmp := compareKeys(key, gp[c.next].largest)
		if cmp < 0 || cmp == 0 && (c.next == len(gp)-1 || compareKeys(key, gp[c.next+1].smallest) < 0) {
			break
		}
		if c.seen {
			crossed++
		}
		c.inGap = true
		c.next++
	}
	if !c.seen {
		c.overlap = c.keyOverlap(key)
		c.seen = true
	}
	c.crossed += crossed
	return crossed
}

// keyOverlap is the bytes of the grandparents holding key, the key advance
// last saw.
func (c *outputCutter) keyOverlap(key []byte) uint64 {
	if c.inGap {
		return 0
	}
	gp := c.grandparents
	n := gp[c.next].size
	for i := c.next - 1; i >= 0 && compareKeys(key, gp[i].largest) == 0; i-- {
		n += gp[i].size
	}
	return n
}

// cutBefore reports whether the open output, size bytes so far, should end
// before key. It must see every key of the compaction in order, with an
// output open or not (open false).
func (c *outputCutter) cutBefore(key []byte, open bool, size uint64) bool {
	before := c.overlap
	crossed := c.advance(key)
	if !open {
		return false
	}
	if size >= c.target {
		return true
	}
	if crossed == 0 {
		return false
	}
	if c.overlap+size > c.maxBytes {
		return true
	}
	if !c.dynamic {
		return false
	}
	// Crossing into a gap takes two boundaries to skip a grandparent
	// (its start and end); into a grandparent, three.
	skip := 3
	if c.inGap {
		skip = 2
	}
	if crossed >= skip && c.overlap-before > c.target/8 {
		return true
	}
	return size >= (c.target+99)/100*uint64(50+min(c.crossed*5, 40))
}

// cut records that a new output starts at key, the key cutBefore last saw.
func (c *outputCutter) cut(key []byte) {
	c.crossed = 0
	c.overlap = c.keyOverlap(key)
}
