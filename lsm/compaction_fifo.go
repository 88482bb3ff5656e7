package lsm

// This file is the FIFO compaction style (--compaction_style=2), after
// RocksDB 7.8.3's FIFOCompactionPicker: flushes add tables to L0, and once
// the tables add up to more than compaction_options_fifo's
// max_table_files_size the oldest are dropped, without being read, until
// the rest fit. With allow_compaction, a run of small L0 tables is merged
// into one first (RocksDB's intra-L0 compaction, FindIntraL0Compaction).
// Dropping a table is a version edit that lists it as deleted; the file is
// removed only after that edit is in the MANIFEST and no version or reader
// uses it, as for any compaction input.

// fifoPick is the FIFO picker's decision: files of level to drop
// (deletion) or, in L0, to merge into one table.
type fifoPick struct {
	level    int
	files    []*fileMeta
	deletion bool
}

// sizeScore is total over limit as RocksDB's double division computes it:
// +Inf for a zero limit with data, NaN (never >= 1) for neither.
func sizeScore(total, limit uint64) float64 { return float64(total) / float64(limit) }

// pickFIFOFiles decides, on a version's levels, what RocksDB's FIFO picker
// would: nothing unless the L0 score (size over the limit, or with
// allow_compaction the table count over the trigger if larger) reaches 1;
// then an intra-L0 merge while everything is in L0 and fits, else the
// oldest tables of the deepest non-empty level until the rest fit.
func pickFIFOFiles(levels [][]*fileMeta, o fifoOptions) (fifoPick, bool) {
	var l0Size uint64
	l0Files, l0Busy := 0, false
	for _, f := range levels[0] {
		if f.compacting {
			l0Busy = true
			continue
		}
		l0Size += f.size
		l0Files++
	}
	score := sizeScore(l0Size, o.maxTableFilesSize)
	if o.allowCompaction {
		score = max(score, float64(l0Files)/float64(o.trigger))
	}
	if !(score >= 1) {
		return fifoPick{}, false
	}
	var total uint64
	last := 0
	for level, files := range levels {
		if size := levelBytes(files); size > 0 {
			total += size
			last = level
		}
	}
	if last == 0 && total <= o.maxTableFilesSize {
		if !o.allowCompaction || len(levels[0]) == 0 {
			return fifoPick{}, false
		}
		perDeleted := uint64(float64(o.writeBufferSize) * 1.1)
		files := intraL0Inputs(levels[0], o.trigger, perDeleted, o.maxCompactionBytes)
		return fifoPick{files: files}, files != nil
	}
	if l0Busy || anyCompacting(levels[last]) {
		// RocksDB runs one FIFO deletion at a time.
		return fifoPick{}, false
	}
	p := fifoPick{level: last, deletion: true}
	files := levels[last]
	for i := range files {
		// L0 is newest first: drop from its end. A deeper level is in
		// key order, dropped from its start, as RocksDB does.
		f := files[i]
		if last == 0 {
			f = files[len(files)-1-i]
		}
		total -= f.size
		p.files = append(p.files, f)
		if total <= o.maxTableFilesSize {
			break
		}
	}
	return p, true
}

// intraL0Inputs is RocksDB's FindIntraL0Compaction with no memtable to
// wait for: from the newest L0 table, take tables while the bytes merged
// per table removed keep falling and the total stays within
// maxCompactionBytes; the run qualifies with at least minFiles tables and
// under perDeleted bytes per table removed. nil: no run qualifies.
func intraL0Inputs(files []*fileMeta, minFiles int, perDeleted, maxCompactionBytes uint64) []*fileMeta {
	if len(files) == 0 || files[0].compacting {
		return nil
	}
	bytes := files[0].size
	best := ^uint64(0) // bytes per table removed of the run so far
	limit := 1
	for ; limit < len(files); limit++ {
		bytes += files[limit].size
		per := bytes / uint64(limit)
		if files[limit].compacting || per > best || bytes > maxCompactionBytes {
			break
		}
		best = per
	}
	if limit >= minFiles && best < perDeleted {
		return files[:limit:limit]
	}
	return nil
}

// pickFIFO turns the FIFO picker's decision into a compaction (DB.mu
// held), nil when there is nothing to do.
func (db *DB) pickFIFO(v *version) *compaction {
	p, ok := pickFIFOFiles(v.levels, fifoSettings(db.opts))
	if !ok {
		return nil
	}
	c := &compaction{level: p.level, outputLevel: p.level, deletion: p.deletion}
	c.inputs[0] = append([]*fileMeta(nil), p.files...)
	c.smallest, c.largest = keyRange(c.inputs[0])
	c.bottommost = !v.olderOverlaps(c)
	c.markCompacting(true)
	return c
}

// dropTables runs a deletion compaction: one version edit that removes
// c's inputs, whose files go when no version uses them (DB.mu held).
func (db *DB) dropTables(c *compaction) error {
	defer c.markCompacting(false)
	e := &versionEdit{}
	for _, f := range c.inputs[0] {
		e.deleted = append(e.deleted, deletedFileEntry{level: c.level, fileNum: f.num})
	}
	return db.installEdit(c.fam, e)
}
