package lsm

import "math"

// This file is the universal compaction style (--compaction_style=1),
// after RocksDB 7.8.3's UniversalCompactionPicker. The data is a list of
// sorted runs, newest first: each L0 table is one, then each non-empty
// level below L0 is one. Flushes add L0 tables; a compaction merges a
// contiguous span of runs into one run, written as one L0 table when the
// next older run is in L0, else into the level just above the next older
// run (the last level when the span reaches the oldest run), as RocksDB
// places them. So levels below L0 are ordinary disjoint levels, and reads,
// the MANIFEST and reopen need nothing of their own.
//
// The picker tries, in RocksDB's order: size amplification (the runs newer
// than the oldest add up to max_size_amplification_percent of it: merge
// everything), size ratio (from the newest run, take the next run while it
// is no larger than the total so far plus size_ratio percent, between
// min_merge_width and max_merge_width runs), and the run count (more runs
// than level0_file_num_compaction_trigger: merge the newest surplus + 1,
// sizes aside). Runs are compared by table size: RocksDB's compensated
// size adds weight for deletions, which this picker does not.

// sortedRun is one universal sorted run: an L0 table (file) or a whole
// level below L0.
type sortedRun struct {
	level      int
	file       *fileMeta // the table, for an L0 run
	size       uint64
	compacting bool
}

// sortedRuns lists v's sorted runs, newest first, as RocksDB's
// CalculateSortedRuns does: a level is being compacted when any of its
// tables is.
func sortedRuns(v *version) []sortedRun {
	var runs []sortedRun
	for _, f := range v.levels[0] {
		runs = append(runs, sortedRun{level: 0, file: f, size: f.size, compacting: f.compacting})
	}
	for level := 1; level < len(v.levels); level++ {
		if size := levelBytes(v.levels[level]); size > 0 {
			runs = append(runs, sortedRun{level: level, size: size, compacting: anyCompacting(v.levels[level])})
		}
	}
	return runs
}

// universalPick is the picker's decision: merge runs [start, end) into
// outputLevel.
type universalPick struct {
	start, end  int
	outputLevel int
	reason      string // "size amp", "size ratio" or "file num"
}

// pickUniversalRuns decides, on runs (newest first) and a DB of numLevels
// levels, what RocksDB's universal picker would.
func pickUniversalRuns(runs []sortedRun, numLevels int, o universalOptions) (universalPick, bool) {
	idle := 0
	for _, r := range runs {
		if !r.compacting {
			idle++
		}
	}
	// NeedsCompaction (the L0 score, idle runs over the trigger) and
	// PickCompaction's own check on all runs.
	if idle < o.trigger || len(runs) < o.trigger {
		return universalPick{}, false
	}
	if p, ok := reduceSizeAmp(runs, numLevels, o.maxSizeAmplification); ok {
		return p, true
	}
	if p, ok := reduceSortedRuns(runs, numLevels, o, o.sizeRatio, math.MaxUint32); ok {
		p.reason = "size ratio"
		return p, true
	}
	if idle > o.trigger {
		if p, ok := reduceSortedRuns(runs, numLevels, o, math.MaxUint32, uint64(idle-o.trigger+1)); ok {
			p.reason = "file num"
			return p, true
		}
	}
	return universalPick{}, false
}

// outputLevelBefore is where a merge of runs ending before runs[next]
// goes: the last level when it takes the oldest run, L0 when the next
// older run is an L0 table, else the level above that run.
func outputLevelBefore(runs []sortedRun, next, numLevels int) int {
	switch {
	case next == len(runs):
		return numLevels - 1
	case runs[next].level == 0:
		return 0
	default:
		return runs[next].level - 1
	}
}

// reduceSizeAmp is RocksDB's PickCompactionToReduceSizeAmp: when the runs
// newer than the oldest, from the newest idle one, add up to ratio percent
// of the oldest, merge them all with it.
func reduceSizeAmp(runs []sortedRun, numLevels int, ratio uint64) (universalPick, bool) {
	n := len(runs)
	if n == 0 || runs[n-1].compacting {
		return universalPick{}, false
	}
	start := -1
	for i := 0; i+1 < n; i++ {
		if !runs[i].compacting {
			start = i
			break
		}
	}
	if start < 0 {
		return universalPick{}, false
	}
	var newer uint64
	for i := start; i < n-1; i++ {
		if runs[i].compacting {
			return universalPick{}, false
		}
		newer += runs[i].size
	}
	if newer*100 < ratio*runs[n-1].size {
		return universalPick{}, false
	}
	return universalPick{start: start, end: n, outputLevel: numLevels - 1, reason: "size amp"}, true
}

// reduceSortedRuns is RocksDB's PickCompactionToReduceSortedRuns with the
// default stop style (total size): from each idle run in turn, take the
// following runs while each is no larger than the total taken so far plus
// ratio percent, up to min(max_merge_width, maxRuns) runs; the first span
// of at least min_merge_width (and 2) runs is merged.
func reduceSortedRuns(runs []sortedRun, numLevels int, o universalOptions, ratio, maxRuns uint64) (universalPick, bool) {
	minWidth := max(o.minMergeWidth, 2)
	maxWidth := min(o.maxMergeWidth, maxRuns)
	var count uint64
	start, done := 0, false
	for loop := 0; loop < len(runs); loop++ {
		count = 0
		var first *sortedRun
		for ; loop < len(runs); loop++ {
			if !runs[loop].compacting {
				first = &runs[loop]
				count = 1
				break
			}
		}
		var total uint64
		if first != nil {
			total = first.size
		}
		for i := loop + 1; count < maxWidth && i < len(runs); i++ {
			next := runs[i]
			if next.compacting {
				break
			}
			if float64(total)*(100.0+float64(ratio))/100.0 < float64(next.size) {
				break
			}
			total += next.size
			count++
		}
		if count >= minWidth {
			start, done = loop, true
			break
		}
	}
	if !done || count <= 1 {
		return universalPick{}, false
	}
	end := start + int(count)
	return universalPick{start: start, end: end, outputLevel: outputLevelBefore(runs, end, numLevels)}, true
}

// pickUniversal turns the universal picker's decision into a compaction
// (DB.mu held), nil when there is nothing to do.
func (db *DB) pickUniversal(v *version) *compaction {
	runs := sortedRuns(v)
	p, ok := pickUniversalRuns(runs, db.numLevels, universalSettings(db.opts))
	if !ok {
		return nil
	}
	return db.mergeRuns(v, runs[p.start:p.end], p.outputLevel, p.end == len(runs))
}

// mergeRuns makes the compaction that merges runs into outputLevel and
// marks its inputs (DB.mu held). The first run's level is the start
// level; the output level's own tables and those of the levels between are
// inputs when a run lives there. oldest says runs ends with the oldest run.
func (db *DB) mergeRuns(v *version, runs []sortedRun, outputLevel int, oldest bool) *compaction {
	c := &compaction{level: runs[0].level, outputLevel: outputLevel}
	for _, r := range runs {
		switch {
		case r.level == 0:
			c.inputs[0] = append(c.inputs[0], r.file)
		case r.level == c.level:
			c.inputs[0] = append(c.inputs[0], v.levels[r.level]...)
		case r.level == outputLevel:
			c.inputs[1] = append(c.inputs[1], v.levels[r.level]...)
		default:
			c.middle = append(c.middle, levelInput{level: r.level, files: v.levels[r.level]})
		}
	}
	sets := [][]*fileMeta{c.inputs[0], c.inputs[1]}
	for _, in := range c.middle {
		sets = append(sets, in.files)
	}
	c.smallest, c.largest = keyRange(sets...)
	c.bottommost = oldest || !v.olderOverlaps(c)
	c.markCompacting(true)
	return c
}

// levelInput is the tables of one input level of a universal compaction
// between its start and output levels.
type levelInput struct {
	level int
	files []*fileMeta
}

// olderOverlaps reports whether data older than c's inputs may hold keys
// in c's range, as RocksDB's RangeMightExistAfterSortedRun: an L0 table
// older than every L0 input when c writes to L0, or a table in a level
// below c's output level. Without such data c may drop tombstones.
func (v *version) olderOverlaps(c *compaction) bool {
	if c.outputLevel == 0 {
		after := 0
		for i, f := range v.levels[0] {
			for _, in := range c.inputs[0] {
				if f == in {
					after = i + 1
				}
			}
		}
		for _, f := range v.levels[0][after:] {
			if f.overlaps(c.smallest, c.largest) {
				return true
			}
		}
	}
	for level := c.outputLevel + 1; level < len(v.levels); level++ {
		if len(v.overlapping(level, c.smallest, c.largest)) > 0 {
			return true
		}
	}
	return false
}

// compactAllRuns merges every run into the last level, as RocksDB's
// CompactRange does for the universal style whatever the range (DB.mu
// held, no compaction running). nil: the DB is empty.
func (db *DB) compactAllRuns() *compaction {
	v := db.def.current
	runs := sortedRuns(v)
	if len(runs) == 0 {
		return nil
	}
	return db.mergeRuns(v, runs, db.numLevels-1, true)
}
