package lsm

import (
	"bufio"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/godbbench/godbbench/internal/mmapfault"
	"github.com/godbbench/godbbench/internal/ratelimit"
)

// Flush switches the active memtable of every column family if it holds
// anything and waits until every memtable that existed at the call has
// been written to L0.
func (db *DB) Flush() error { return db.flush(false) }

// flush is Flush; byClose lets it through while Close waits for it.
func (db *DB) flush(byClose bool) error {
	if db.opts.ReadOnly {
		return ErrReadOnly
	}
	w := writerPool.Get().(*writer)
	w.batch, w.flush, w.closeFlush = nil, true, byClose
	err := db.commit(w)
	w.flush, w.closeFlush = false, false
	writerPool.Put(w)
	if err != nil {
		return err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	// In each family, every memtable before the active one: the commit
	// above switched each that held anything.
	families := db.allFamilies()
	targets := make([]uint64, len(families))
	for i, f := range families {
		if f.mem.id > 0 {
			targets[i] = f.mem.id - 1
		}
		f.flushTarget = max(f.flushTarget, targets[i])
	}
	db.maybeScheduleFlush()
	for i, f := range families {
		for len(f.imm) > 0 && f.imm[0].id <= targets[i] && db.mu.bgErr == nil {
			db.bgCond.Wait()
		}
	}
	if db.mu.bgErr != nil {
		return fmt.Errorf("lsm: flush failed: %w", db.mu.bgErr)
	}
	return nil
}

// maybeScheduleFlush starts the flush goroutine when enough immutable
// memtables wait in some column family (DB.mu held).
func (db *DB) maybeScheduleFlush() {
	if db.mu.flushing || db.mu.bgErr != nil || db.opts.ReadOnly || db.familyToFlush() == nil {
		return
	}
	db.mu.flushing = true
	db.bgWG.Add(1)
	go db.flushLoop()
}

// flushDue reports whether f's immutable memtables are to be flushed:
// mergeWidth of them wait, a caller waits for them, or the DB is closing
// (DB.mu held).
func (db *DB) flushDue(f *family) bool {
	if len(f.imm) == 0 {
		return false
	}
	return len(f.imm) >= db.mergeWidth() || f.imm[0].id <= f.flushTarget || db.mu.closed
}

// mergeWidth is the number of immutable memtables a flush waits for:
// min_write_buffer_number_to_merge clipped, as RocksDB's SanitizeOptions
// clips it, to between 1 and max_write_buffer_number - 1 (itself at least
// 2). Writes stop at max_write_buffer_number - 1 immutable memtables
// (makeRoomForWrite), so a flush that waited for more would never come.
func (db *DB) mergeWidth() int {
	o := db.opts
	return max(1, min(o.MinWriteBufferNumberToMerge, max(o.MaxWriteBufferNumber, 2)-1))
}

// familyToFlush returns the family whose oldest immutable memtable is the
// oldest of those due, or nil (DB.mu held).
func (db *DB) familyToFlush() *family {
	var due *family
	if db.flushDue(db.def) {
		due = db.def
	}
	for _, f := range db.mu.vs.families.live {
		if db.flushDue(f) && (due == nil || f.imm[0].id < due.imm[0].id) {
			due = f
		}
	}
	return due
}

// flushLoop writes immutable memtables to L0 until none is due.
func (db *DB) flushLoop() {
	defer db.bgWG.Done()
	db.mu.Lock()
	defer db.mu.Unlock()
	for db.mu.bgErr == nil {
		fam := db.familyToFlush()
		if fam == nil {
			break
		}
		mems := append([]*memTable(nil), fam.imm...)
		snaps := db.mu.snaps.seqs()
		db.mu.stats.runningFlushes++
		tableNum, err := db.beginFlush(mems)
		var meta *fileMeta
		start := time.Now()
		e := &versionEdit{familyEdit: familyEdit{family: fam.id}, flushEnded: []uint64{tableNum}}
		if err == nil {
			db.mu.Unlock()
			meta, err = db.writeLevel0(mems, snaps, tableNum, e)
			db.mu.Lock()
			// The flushed memtables' WALs are synced before the MANIFEST
			// edit that makes them obsolete (walretire.go).
			db.waitRetiredWALs()
			if err == nil && db.mu.bgErr != nil {
				err = db.mu.bgErr
			}
		}
		db.mu.stats.runningFlushes--
		if err == nil {
			if meta != nil {
				e.added = append(e.added, newFileEntry{level: 0, meta: meta})
			}
			next := fam.mem.logNum
			if len(fam.imm) > len(mems) {
				next = fam.imm[len(mems)].logNum
			}
			e.setLogNumber(next)
			e.setLastSeq(db.visibleSeq.Load())
			err = db.mu.vs.logAndApply(e)
		}
		if err != nil {
			if db.mu.bgErr == nil {
				db.mu.bgErr = fmt.Errorf("flush: %w", err)
			}
			break
		}
		fam.imm = fam.imm[len(mems):]
		fam.publishReads()
		db.countStallConditions()
		for _, m := range mems {
			m.unref() // the DB's reference; readers may still hold theirs
		}
		if meta != nil {
			db.mu.stats.recordFlush(fam, meta.size, time.Since(start))
		}
		if err := db.advanceIdleFamilies(fam); err != nil {
			if db.mu.bgErr == nil {
				db.mu.bgErr = fmt.Errorf("flush: %w", err)
			}
			break
		}
		db.deleteObsoleteWALs()
		db.maybeScheduleCompaction()
		db.bgCond.Broadcast()
	}
	db.mu.flushing = false
	db.bgCond.Broadcast()
}

// advanceIdleFamilies records, after a flush of family flushed, the log
// number of each other family that has no immutable memtable as its
// active memtable's, so that a family written rarely or never does not
// keep old WALs alive (DB.mu held). A DB with the default family alone
// has none to record.
func (db *DB) advanceIdleFamilies(flushed *family) error {
	for _, f := range db.allFamilies() {
		if f == flushed || len(f.imm) > 0 || f.mem.logNum <= f.logNumber {
			continue
		}
		e := &versionEdit{familyEdit: familyEdit{family: f.id}}
		e.setLogNumber(f.mem.logNum)
		if err := db.mu.vs.logAndApply(e); err != nil {
			return err
		}
	}
	return nil
}

// deleteObsoleteWALs removes WALs older than the lowest log number of the
// column families in the MANIFEST.
func (db *DB) deleteObsoleteWALs() {
	keep := db.mu.liveWALs[:0]
	minLog := db.minLogNumber()
	for _, num := range db.mu.liveWALs {
		if num < minLog {
			db.fs.Remove(walName(db.walDir, num))
		} else {
			keep = append(keep, num)
		}
	}
	db.mu.liveWALs = keep
}

// writeLevel0 writes the merged contents of mems to one new table,
// numbered tableNum (0: a new number), and returns its metadata, or nil
// when nothing survived; the blob files it writes are added to e. DB.mu is
// not held except during recovery, when nothing runs concurrently.
func (db *DB) writeLevel0(mems []*memTable, snaps []uint64, tableNum uint64, e *versionEdit) (*fileMeta, error) {
	iters := make([]internalIter, len(mems))
	for i, m := range mems {
		iters[i] = newMemIter(m.rep)
	}
	src := newMergingIter(iters)
	defer src.Close()
	ci := compactionIter{src: src, snapshots: snaps, merge: db.merge, dels: memTablesRangeDels(mems)}
	if db.blobOpts.writesBlobs(0) {
		ci.blobs = db.newBlobSink(nil, 0, false)
	}
	keys := 0
	for _, m := range mems {
		keys += int(m.rep.Len())
	}
	outs, err := db.writeTables(&ci, 0, nil, tableNum, keys, ratelimit.High)
	if ci.blobs != nil {
		err = db.finishBlobs(ci.blobs, e, outs, err)
	}
	if err != nil || len(outs) == 0 {
		return nil, err
	}
	return outs[0], nil
}

// writeTables writes the entries of ci to tables for level, starting a new
// table at a user-key boundary where cutter says (nil: one table;
// compaction_cut.go), and ci's range tombstones with them
// (compaction_rangedel.go).
// The first table is numbered firstNum unless that is 0; the tables are
// written at pri (outputfile.go). keysHint, when not 0, is at least how
// many keys a single output table will hold (a flush's memtable entries;
// sst.WriterOptions.ExpectedKeys).
// It needs no lock: file numbers come from an atomic counter.
func (db *DB) writeTables(ci *compactionIter, level int, cutter *outputCutter, firstNum uint64, keysHint int, pri ratelimit.Priority) (outs []*fileMeta, err error) {
	var w tableWriter
	var f WritableFile
	var bw *bufio.Writer
	var meta *fileMeta
	defer func() {
		if err == nil {
			return
		}
		// Remove what was written: the outputs are in no version yet.
		if w != nil {
			f.Close()
			db.fs.Remove(tableName(db.dir, meta.num))
		}
		for _, m := range outs {
			db.fs.Remove(tableName(db.dir, m.num))
		}
	}()
	// Compaction inputs may be mapped rtable tables, which the input
	// iterators read in place: a fault fails the compaction (fault.go).
	defer mmapfault.Catch(debug.SetPanicOnFault(true), &err)
	dels := ci.outputRangeDels()
	var tableStart []byte // where the table's share of dels starts (nil: unbounded)
	var zeroedSeq uint64  // the largest source sequence of the table's entries at 0
	// finish completes the table; next is the first key of the next one
	// (nil for the last), where its share of dels ends.
	finish := func(next []byte) error {
		var err error
		if !dels.Empty() {
			err = w.setRangeDels(dels.Truncate(tableStart, next))
			tableStart = append([]byte(nil), next...)
		}
		if zeroedSeq > 0 {
			// Once per table: the recorded range ends at the largest
			// sequence a zeroed entry had (its smallest is 0 already).
			w.CoverSeq(zeroedSeq)
			zeroedSeq = 0
		}
		var props tableProps
		if err == nil {
			props, err = w.finish()
		}
		if err == nil {
			err = bw.Flush()
		}
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		w = nil
		if err != nil {
			db.fs.Remove(tableName(db.dir, meta.num))
			return fmt.Errorf("write table %d: %w", meta.num, err)
		}
		meta.size = props.fileSize
		meta.smallest = append([]byte(nil), props.smallestKey...)
		meta.largest = append([]byte(nil), props.largestKey...)
		meta.smallestSeq, meta.largestSeq = props.smallestSeq, props.largestSeq
		meta.numEntries, meta.numDeletions = props.numEntries, props.numDeletions
		meta.numRangeDels = props.numRangeDels
		outs = append(outs, meta)
		return nil
	}
	create := func() error {
		num := firstNum
		if num == 0 {
			num = db.mu.vs.newFileNum()
		}
		firstNum = 0
		f, err = db.createOutput(tableName(db.dir, num), pri)
		if err != nil {
			return fmt.Errorf("create table: %w", err)
		}
		bw = bufio.NewWriterSize(f, 256<<10)
		// ci drops tombstones exactly in a bottommost compaction.
		w = db.newTableWriter(bw, level, ci.dropTombstones, keysHint)
		meta = &fileMeta{num: num}
		return nil
	}
	var lastKey []byte
	for ok := ci.First(); ok; ok = ci.Next() {
		key := ci.Key()
		if cutter != nil {
			var size uint64
			if w != nil {
				size = w.EstimatedSize()
			}
			if cutter.cutBefore(key, w != nil, size) && compareKeys(key, lastKey) != 0 && !dels.Reaches(key) {
				if err := finish(key); err != nil {
					return outs, err
				}
				cutter.cut(key)
			}
		}
		if w == nil {
			if err := create(); err != nil {
				return outs, err
			}
		}
		value, err := ci.Value()
		if err != nil {
			return outs, err
		}
		kind := ci.Kind()
		if ci.blobs != nil {
			if kind, value, err = ci.blobs.add(key, kind, value); err != nil {
				return outs, err
			}
		}
		seq := ci.Seq()
		if err := w.Add(key, seq, kind, value); err != nil {
			return outs, fmt.Errorf("add to table %d: %w", meta.num, err)
		}
		if seq == 0 {
			zeroedSeq = max(zeroedSeq, ci.sourceSeq())
		}
		lastKey = append(lastKey[:0], key...)
	}
	if err := ci.Error(); err != nil {
		return outs, err
	}
	if w == nil && !dels.Empty() {
		// Only tombstones survived: they get a table of their own.
		if err := create(); err != nil {
			return outs, err
		}
	}
	if w != nil {
		if err := finish(nil); err != nil {
			return outs, err
		}
	}
	return outs, nil
}
