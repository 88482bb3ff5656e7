package lsm

import (
	"github.com/godbbench/godbbench/rtable"
	"github.com/godbbench/godbbench/sst"
)

// Read-triggered compaction, after LevelDB's seek compaction: a table that
// reads keep probing in vain is compacted into the next level even when no
// size score asks for it, so that the reads that follow probe one sorted
// run fewer.
//
// Each table has an allowance of wasted probes proportional to its size
// (readAllowance: one per 16 KiB, at least 100), about what one compaction
// of the table costs in reads. Charges:
//
//   - a Get that probed two or more tables charges the first table whose
//     data it read (which did not hold the key, or the Get would have
//     stopped there); a table whose filter ruled the key out cost the
//     Get no data read and is never charged, but counts as a later probe;
//   - an Iterator.SeekGE whose target lies in the key range of two or more
//     tables charges the first of them: the newest L0 table holding it, else
//     the table of the highest level.
//
// A charge is one atomic add on the table's metadata: no lock, no map, no
// allocation. The charge that uses up the allowance (exactly one per table)
// takes DB.mu, queues the table in DB.mu.readMarked and runs the scheduler.
// The picker (pickReadCompaction) turns to the queue only when no level's
// size score asks for a compaction, so read-triggered work never delays
// the compactions writes need, and it goes through maybeScheduleCompaction,
// so max_background_compactions bounds it like any other. A marked table
// of L0 gives the usual compaction of all of L0 into L1; a table of level
// L >= 1 is compacted with what it overlaps in L+1; a table of the last
// level, one already compacting or one that left the current version is
// dropped from the queue. A table whose next level is busy stays queued
// until a later pick.
//
// It is on by default, for leveled compaction of a read-write DB with
// automatic compactions; Config.DisableReadCompactions turns it off.

// readAllowanceBytes is the table size that buys one wasted probe.
const readAllowanceBytes = 16 << 10

// minReadAllowance is the least allowance of a table.
const minReadAllowance = 100

// readAllowance is how many wasted probes a table of size bytes takes
// before it is marked for compaction.
func readAllowance(size uint64) int64 {
	return max(minReadAllowance, int64(size/readAllowanceBytes))
}

// readCharge follows one read's probes: the first table whose data it
// read and whether it probed another one after it. It lives on the
// reader's stack.
type readCharge struct {
	first *fileMeta
	more  bool
}

// probe records that the read consulted table f and read its data.
func (c *readCharge) probe(f *fileMeta) {
	if c.first == nil {
		c.first = f
	} else {
		c.more = true
	}
}

// pass records that the read consulted a table without reading its data
// (its filter ruled the key out), or found the key there.
func (c *readCharge) pass() {
	if c.first != nil {
		c.more = true
	}
}

// missed records a Get's lookup in f that did not end the Get: a probe
// when g says it read f's data, else a pass. g.readData is asked only
// while the Get has no first table (getter.classify).
func (c *readCharge) missed(f *fileMeta, g *getter) {
	if c.first == nil && !g.readData {
		return
	}
	c.probe(f)
}

// noteLookup records, when the Get's charge asks (classify), whether the
// lookup in r read table data: it found an entry, it skipped the filter,
// or the filter admitted key (a second probe of the filter, whose bits the
// lookup has just brought into the cache; it happens only for the tables
// a Get passes before the first one whose data it reads).
func (g *getter) noteLookup(r *openTable, skipFilter, found bool, key []byte) {
	if g.classify {
		g.readData = found || skipFilter || filterAdmits(r, key)
	}
}

// filterAdmits reports whether r's filter admits key (true without one).
func filterAdmits(r *openTable, key []byte) bool {
	switch t := r.tableReader.(type) {
	case *sst.Reader:
		return t.MayContain(key)
	case *rtable.Reader:
		return t.MayContain(key)
	}
	return true
}

// settle charges the first table probed when the read probed more than
// one.
func (c *readCharge) settle(db *DB) {
	if c.more && db.readCompactions {
		db.chargeRead(c.first)
	}
}

// chargeRead charges f with one wasted probe; the charge that uses up its
// allowance queues it for compaction.
func (db *DB) chargeRead(f *fileMeta) {
	if f.wastedReads.Add(1) == readAllowance(f.size) {
		db.markForReadCompaction(f)
	}
}

// markForReadCompaction queues f for a read-triggered compaction and lets
// the scheduler consider it (takes DB.mu).
func (db *DB) markForReadCompaction(f *fileMeta) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.mu.closed {
		return
	}
	db.mu.readMarked = append(db.mu.readMarked, f)
	db.maybeScheduleCompaction()
}

// chargeSeek charges the forward seek to key that it has just positioned
// its sources for: when key lies in the key range of two or more tables,
// the first of them (newest L0 table first, then by level) is charged.
// The level iterators' own seeks found their tables (levelIter.seekHit);
// the L0 tables, each a source of its own, are checked by their ranges.
// It stops looking at the second such table, and charges nothing for a
// seek that failed (its level iterators may not all have moved).
func (it *dbIter) chargeSeek(key []byte) {
	if it.m.Error() != nil {
		return
	}
	var c readCharge
	for _, f := range it.rs.v.levels[0] {
		if compareKeys(key, f.smallest) >= 0 && compareKeys(key, f.largest) <= 0 {
			if c.probe(f); c.more {
				break
			}
		}
	}
	for _, child := range it.m.children[it.levelStart:] {
		if c.more {
			break
		}
		if l, ok := child.(*levelIter); ok && l.seekHit != nil {
			c.probe(l.seekHit)
		}
	}
	c.settle(it.db)
}

// pickReadCompaction returns a compaction of the first queued table that
// can have one, marked compacting, and drops from the queue the tables
// that need none any more (DB.mu held).
func (db *DB) pickReadCompaction() *compaction {
	var c *compaction
	keep := db.mu.readMarked[:0]
	for _, f := range db.mu.readMarked {
		if c != nil {
			keep = append(keep, f)
			continue
		}
		fam, level := db.liveLevelOf(f)
		if fam == nil || f.compacting || level >= db.numLevels-1 {
			continue
		}
		if level == 0 {
			c = db.pickFromLevel(fam, 0)
		} else {
			c = db.newCompaction(fam, level, level+1, []*fileMeta{f})
		}
		if c == nil {
			keep = append(keep, f) // its next level is busy: later
		}
	}
	clear(db.mu.readMarked[len(keep):])
	db.mu.readMarked = keep
	if c != nil {
		c.markCompacting(true)
		db.mu.readCompactions++
	}
	return c
}

// liveLevelOf returns the family and level whose current version lists f,
// or a nil family when none does (DB.mu held).
func (db *DB) liveLevelOf(f *fileMeta) (*family, int) {
	if level := levelOf(db.def.current, f); level >= 0 {
		return db.def, level
	}
	for _, fam := range db.mu.vs.families.live {
		if level := levelOf(fam.current, f); level >= 0 {
			return fam, level
		}
	}
	return nil, -1
}

// levelOf returns the level of v that lists f, or -1.
func levelOf(v *version, f *fileMeta) int {
	if v == nil {
		return -1
	}
	for level, files := range v.levels {
		for _, g := range files {
			if g == f {
				return level
			}
		}
	}
	return -1
}
