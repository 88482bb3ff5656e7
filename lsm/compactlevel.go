package lsm

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
)

// LiveFile is one table of the current version: RocksDB's
// LiveFileMetaData, reduced to what CompactFiles needs.
type LiveFile struct {
	Num   uint64 // file number; the file is tableName(dir, Num)
	Level int
	Size  uint64 // bytes
}

// LiveFiles lists the tables of the current version, level by level.
func (db *DB) LiveFiles() ([]LiveFile, error) {
	rs := db.def.reads.get()
	if rs == nil {
		return nil, ErrClosed
	}
	defer rs.unref()
	var out []LiveFile
	for level, files := range rs.v.levels {
		for _, f := range files {
			out = append(out, LiveFile{Num: f.num, Level: level, Size: f.size})
		}
	}
	return out, nil
}

// ErrFilesBusy is CompactFiles' error when a named table is already an
// input of a running compaction, in RocksDB's words (Status::Aborted).
var ErrFilesBusy = errors.New("Operation aborted: Some of the necessary compaction input files are already being compacted")

// CompactFiles compacts the named tables, which must all be in one level,
// together with the tables of outputLevel their key range overlaps, into
// new tables in outputLevel (one table when that is L0): RocksDB's
// DB::CompactFiles. As in RocksDB, the tables of a level >= 1 between the
// named ones, and those of the levels between theirs and outputLevel that
// overlap the range, are inputs too. The compaction
// runs in the caller (through the same machinery as background
// compactions, runCompaction) and always rewrites its inputs, even where
// they could be moved. Unknown tables, tables in more than one level and
// an outputLevel above their level or past the last level fail with
// RocksDB's InvalidArgument texts; tables already being compacted fail with
// ErrFilesBusy, which a caller may retry after WaitForCompactions.
func (db *DB) CompactFiles(nums []uint64, outputLevel int) error {
	if db.opts.ReadOnly {
		return ErrReadOnly
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	// A manual compaction (compactManual) takes tables without looking at
	// their compacting marks once it has waited for the running ones, this
	// among them.
	for db.mu.manualRunning {
		db.bgCond.Wait()
	}
	if db.mu.bgErr != nil {
		return db.mu.bgErr
	}
	if len(nums) == 0 {
		return errors.New("Invalid argument: Compaction must include at least one file.")
	}
	v := db.def.current
	level := -1
	inputs := make([]*fileMeta, 0, len(nums))
	for _, num := range nums {
		f, l := v.find(num)
		if f == nil {
			return fmt.Errorf("Invalid argument: Specified compaction input file %s does not exist in column family default.", tableName(db.dir, num))
		}
		if level >= 0 && l != level {
			return errors.New("Invalid argument: CompactFiles of tables from more than one level is not supported here")
		}
		level = l
		inputs = append(inputs, f)
	}
	if level == 0 && outputLevel > 0 {
		if err := olderL0Left(v.levels[0], inputs); err != nil {
			return err
		}
	}
	if level == 0 && outputLevel == 0 {
		if err := l0Interleaved(v.levels[0], inputs); err != nil {
			return err
		}
	}
	if outputLevel < level || outputLevel >= db.numLevels {
		return fmt.Errorf("Invalid argument: Output level %d is not valid for input level %d (levels 0 to %d)", outputLevel, level, db.numLevels-1)
	}
	if level > 0 {
		inputs = levelSpan(v.levels[level], inputs)
	}
	c := db.newCompaction(db.def, level, outputLevel, inputs)
	if c == nil {
		return ErrFilesBusy
	}
	c.trivialMove = false
	if outputLevel == 0 {
		// An L0 output lies above the older L0 tables: tombstones stay
		// while one of them may hold the key.
		c.bottommost = !v.olderOverlaps(c)
	}
	c.markCompacting(true)
	db.mu.runningCompactions++
	err := db.runCompaction(c)
	db.mu.runningCompactions--
	if err != nil && db.mu.bgErr == nil {
		db.mu.bgErr = fmt.Errorf("compaction: %w", err)
	}
	db.bgCond.Broadcast()
	db.maybeScheduleCompaction()
	return err
}

// levelSpan returns the tables of a level >= 1 (files, in key order) from
// the first of inputs to the last, in key order: the output covers the
// range between them, so a table there left out would overlap it, and a
// merge of inputs out of key order would write keys out of order. RocksDB's
// CompactFiles takes the tables between the named ones too.
func levelSpan(files, inputs []*fileMeta) []*fileMeta {
	first, last := len(files), -1
	for i, f := range files {
		if slices.Contains(inputs, f) {
			first, last = min(first, i), max(last, i)
		}
	}
	return slices.Clone(files[first : last+1])
}

// olderL0Left refuses a set of L0 inputs that leaves out an L0 table
// older than one of them with keys in their range: the output, below L0,
// would then be shadowed by that older table's versions of its keys.
func olderL0Left(l0, inputs []*fileMeta) error {
	var newest uint64
	for _, f := range inputs {
		newest = max(newest, f.largestSeq)
	}
	smallest, largest := keyRange(inputs)
	for _, f := range l0 {
		if slices.Contains(inputs, f) || f.smallestSeq > newest || !f.overlaps(smallest, largest) {
			continue
		}
		return fmt.Errorf("Invalid argument: Cannot compact these L0 tables without the older L0 table %s, which overlaps them", filepath.Base(tableName("", f.num)))
	}
	return nil
}

// l0Interleaved refuses L0 inputs compacted into one L0 table when an L0
// table left out holds sequences between theirs: the output, ordered in
// L0 by its newest sequence, would hide that table's newer versions or be
// hidden by its older ones.
func l0Interleaved(l0, inputs []*fileMeta) error {
	oldest, newest := ^uint64(0), uint64(0)
	for _, f := range inputs {
		oldest, newest = min(oldest, f.smallestSeq), max(newest, f.largestSeq)
	}
	for _, f := range l0 {
		if slices.Contains(inputs, f) || f.largestSeq < oldest || f.smallestSeq > newest {
			continue
		}
		return fmt.Errorf("Invalid argument: Cannot compact these L0 tables into L0 without L0 table %s, whose sequence numbers lie between theirs", filepath.Base(tableName("", f.num)))
	}
	return nil
}

// find returns the table numbered num and its level, or nil.
func (v *version) find(num uint64) (*fileMeta, int) {
	for level, files := range v.levels {
		for _, f := range files {
			if f.num == num {
				return f, level
			}
		}
	}
	return nil, -1
}
