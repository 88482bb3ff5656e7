package lsm

import (
	"fmt"
	"time"

	"github.com/godbbench/godbbench/internal/ratelimit"
)

// maybeScheduleCompaction starts compactions up to the concurrency limit
// (DB.mu held).
func (db *DB) maybeScheduleCompaction() {
	if db.opts.DisableAutoCompactions || db.opts.ReadOnly || db.mu.manualRunning || db.mu.closed {
		return
	}
	for db.mu.bgErr == nil && db.mu.runningCompactions < db.maxCompactions() {
		c := db.pickCompaction()
		if c == nil {
			return
		}
		db.mu.runningCompactions++
		db.bgWG.Add(1)
		go func() {
			defer db.bgWG.Done()
			db.mu.Lock()
			defer db.mu.Unlock()
			if err := db.runCompaction(c); err != nil && db.mu.bgErr == nil {
				db.mu.bgErr = fmt.Errorf("compaction: %w", err)
			}
			db.mu.runningCompactions--
			db.maybeScheduleCompaction()
			db.bgCond.Broadcast()
		}()
	}
}

// installEdit logs e as an edit of family f and publishes f's new version
// to readers (DB.mu held).
func (db *DB) installEdit(f *family, e *versionEdit) error {
	e.family = f.id
	if err := db.mu.vs.logAndApply(e); err != nil {
		return err
	}
	f.publishReads()
	db.countStallConditions()
	return nil
}

// runCompaction executes c. DB.mu is held on entry and exit and released
// while tables are read and written. The inputs are marked compacting.
func (db *DB) runCompaction(c *compaction) error {
	defer c.markCompacting(false)
	st := &c.fam.work.levels[c.outputLevel]
	e := &versionEdit{}
	if c.trivialMove {
		var moved uint64
		for _, f := range c.inputs[0] {
			e.deleted = append(e.deleted, deletedFileEntry{level: c.level, fileNum: f.num})
			e.added = append(e.added, newFileEntry{level: c.outputLevel, meta: f})
			moved += f.size
		}
		if err := db.installEdit(c.fam, e); err != nil {
			return err
		}
		st.movedBytes += moved
		return nil
	}
	if c.deletion {
		return db.dropTables(c)
	}
	snaps := db.mu.snaps.seqs()
	var blobs *blobSink
	if v := c.fam.current; len(v.blobs) > 0 || db.blobOpts.writesBlobs(c.outputLevel) {
		blobs = db.newBlobSink(v, c.outputLevel, true)
	}
	// As in RocksDB, a table written to L0 is never split: it is one
	// sorted run there.
	cutter := db.newOutputCutter(c.fam, c.outputLevel, c.smallest, c.largest)
	db.mu.stats.runningCompactions++
	db.mu.Unlock()
	start := time.Now()
	var iters []internalIter
	var readIn, readOut uint64
	if c.level == 0 {
		for _, f := range c.inputs[0] {
			r, err := db.tableReader(f)
			if err != nil {
				for _, it := range iters {
					it.Close()
				}
				db.mu.Lock()
				db.mu.stats.runningCompactions--
				return err
			}
			iters = append(iters, db.pinIter(r, newTableIter(r, tableIterOptions{callerGuards: true, tableReadIO: db.io.compactionReads})))
			readIn += f.size
		}
	} else {
		iters = append(iters, newCompactionLevelIter(db, c.inputs[0]))
		readIn = levelBytes(c.inputs[0])
	}
	if len(c.inputs[1]) > 0 {
		iters = append(iters, newCompactionLevelIter(db, c.inputs[1]))
		readOut = levelBytes(c.inputs[1])
	}
	for _, in := range c.middle {
		iters = append(iters, newCompactionLevelIter(db, in.files))
		readOut += levelBytes(in.files)
	}
	src := newMergingIter(iters)
	inputSets := [][]*fileMeta{c.inputs[0], c.inputs[1]}
	for _, in := range c.middle {
		inputSets = append(inputSets, in.files)
	}
	dels, err := db.tablesRangeDels(inputSets...)
	if err != nil {
		src.Close()
		db.mu.Lock()
		db.mu.stats.runningCompactions--
		return err
	}
	ci := compactionIter{src: src, snapshots: snaps, dropTombstones: c.bottommost, zeroSeqs: c.bottommost && c.outputLevel > 0, merge: db.merge, dels: dels, blobs: blobs}
	outs, err := db.writeTables(&ci, c.outputLevel, cutter, 0, 0, ratelimit.Low)
	if cerr := src.Close(); err == nil {
		err = cerr
	}
	if blobs != nil {
		err = db.finishBlobs(blobs, e, outs, err)
	}
	elapsed := time.Since(start)
	db.mu.Lock()
	db.mu.stats.runningCompactions--
	if err != nil {
		return err
	}
	for i, set := range c.inputs {
		level := c.level
		if i == 1 {
			level = c.outputLevel
		}
		for _, f := range set {
			e.deleted = append(e.deleted, deletedFileEntry{level: level, fileNum: f.num})
		}
	}
	for _, in := range c.middle {
		for _, f := range in.files {
			e.deleted = append(e.deleted, deletedFileEntry{level: in.level, fileNum: f.num})
		}
	}
	var written uint64
	for _, m := range outs {
		e.added = append(e.added, newFileEntry{level: c.outputLevel, meta: m})
		written += m.size
	}
	if err := db.installEdit(c.fam, e); err != nil {
		return err
	}
	st.readBytesN += readIn
	st.readBytesNp1 += readOut
	st.writeBytes += written
	st.count++
	st.micros += uint64(elapsed.Microseconds())
	st.keyIn += ci.keyIn
	st.keyDrop += ci.keyDrop
	db.mu.stats.countCompaction(readIn+readOut, written, elapsed)
	return nil
}

// Compact compacts the key range [start, end] (nil: unbounded) down to the
// deepest level holding data in that range, as RocksDB's CompactRange does,
// then moves the result to targetLevel when it is >= 0 and the levels in
// between hold nothing in the range.
func (db *DB) Compact(start, end []byte, targetLevel int) error {
	err := db.compactManual(start, end, targetLevel)
	db.releaseIdleMemory()
	return err
}

func (db *DB) compactManual(start, end []byte, targetLevel int) error {
	if err := db.Flush(); err != nil {
		return err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	for db.mu.manualRunning {
		db.bgCond.Wait()
	}
	db.mu.manualRunning = true
	defer func() {
		db.mu.manualRunning = false
		db.bgCond.Broadcast()
		db.maybeScheduleCompaction()
	}()
	for db.mu.runningCompactions > 0 {
		db.bgCond.Wait()
	}
	if db.mu.bgErr != nil {
		return db.mu.bgErr
	}
	if s := db.opts.CompactionStyle; s == styleUniversal || s == styleFIFO {
		return db.compactStyled()
	}
	last := -1
	for level := range db.numLevels {
		if len(db.def.current.overlapping(level, start, end)) > 0 {
			last = level
		}
	}
	if last < 0 {
		return nil
	}
	if last == 0 {
		last = 1
	}
	for level := 0; level < last; level++ {
		v := db.def.current
		var inputs []*fileMeta
		if level == 0 {
			inputs = append(inputs, v.levels[0]...)
		} else {
			inputs = v.overlapping(level, start, end)
		}
		if len(inputs) == 0 {
			continue
		}
		c := db.newCompaction(db.def, level, level+1, inputs)
		if c == nil {
			return fmt.Errorf("lsm: manual compaction of level %d found tables busy", level)
		}
		// A manual compaction rewrites even a lone table, so the range ends
		// up merged and with dropped tombstones.
		c.trivialMove = c.trivialMove && !c.bottommost
		c.markCompacting(true)
		if err := db.runCompaction(c); err != nil {
			db.mu.bgErr = fmt.Errorf("compaction: %w", err)
			return err
		}
	}
	if targetLevel >= 0 && targetLevel < db.numLevels && targetLevel != last {
		return db.refitLevel(last, targetLevel, start, end)
	}
	return nil
}

// refitLevel moves the tables of from overlapping [start, end] to level to,
// when no level between them (inclusive of to) holds data in their range.
func (db *DB) refitLevel(from, to int, start, end []byte) error {
	v := db.def.current
	files := v.overlapping(from, start, end)
	if len(files) == 0 {
		return nil
	}
	s, l := keyRange(files)
	lo, hi := min(from, to), max(from, to)
	for level := lo; level <= hi; level++ {
		if level == from {
			continue
		}
		if level == 0 || len(v.overlapping(level, s, l)) > 0 {
			return nil // RocksDB also leaves the files where they are then
		}
	}
	e := &versionEdit{}
	for _, f := range files {
		e.deleted = append(e.deleted, deletedFileEntry{level: from, fileNum: f.num})
		e.added = append(e.added, newFileEntry{level: to, meta: f})
	}
	return db.installEdit(db.def, e)
}

// WaitForCompactions blocks until no flush or compaction is pending or
// running, and no goroutine is making the next WAL (walnext.go): on return
// the DB's files change only by what the caller does next.
func (db *DB) WaitForCompactions() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	for {
		if db.mu.bgErr != nil {
			return db.mu.bgErr
		}
		db.maybeScheduleFlush()
		db.maybeScheduleCompaction()
		busy := db.mu.flushing || db.mu.runningCompactions > 0 || db.mu.manualRunning ||
			db.mu.nextWAL.making || db.purge.busy()
		if !busy {
			return nil
		}
		db.bgCond.Wait()
	}
}
