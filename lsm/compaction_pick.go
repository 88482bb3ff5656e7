package lsm

import (
	"math"
	"slices"
)

// compaction describes one unit of compaction work.
type compaction struct {
	level, outputLevel int
	inputs             [2][]*fileMeta // files of level and of outputLevel
	trivialMove        bool           // disjoint inputs, nothing to merge with: move them
	deletion           bool           // FIFO: drop inputs[0] unread (compaction_fifo.go)
	middle             []levelInput   // input levels between level and outputLevel
	bottommost         bool           // no deeper level overlaps the key range
	smallest, largest  []byte
	fam                *family // the column family whose tables these are
}

// maxCompactions is how many compactions may run at once, derived from
// max_background_jobs as RocksDB does (a quarter of the jobs flush, the rest
// compact), unless max_background_compactions is set.
func (db *DB) maxCompactions() int {
	o := db.opts
	if o.MaxBackgroundCompactions > 0 {
		return o.MaxBackgroundCompactions
	}
	jobs := max(o.MaxBackgroundJobs, 1)
	return max(jobs-max(jobs/4, 1), 1)
}

// maxBytesForLevel is the target size of level >= 1.
func (db *DB) maxBytesForLevel(level int) float64 {
	o := db.opts
	b := float64(o.MaxBytesForLevelBase)
	for l := 1; l < level; l++ {
		m := o.MaxBytesForLevelMultiplier
		// RocksDB: bytes[l+1] = bytes[l] * multiplier * additional[l].
		if add := o.MaxBytesForLevelMultiplierAdditional; len(add) > l && add[l] > 0 {
			m *= float64(add[l])
		}
		b *= m
	}
	return b
}

// targetFileSize is the output table size for level.
func (db *DB) targetFileSize(level int) uint64 {
	o := db.opts
	s := float64(max(o.TargetFileSizeBase, 1))
	for l := 1; l < level; l++ {
		s *= float64(max(o.TargetFileSizeMultiplier, 1))
	}
	return uint64(math.Min(s, math.MaxInt64))
}

// levelScores are RocksDB's compaction scores: L0 file count over its
// trigger, and level bytes over level target for the levels above the last.
func (db *DB) levelScores(v *version) []float64 {
	scores := make([]float64, db.numLevels)
	n := 0
	for _, f := range v.levels[0] {
		if !f.compacting {
			n++
		}
	}
	scores[0] = float64(n) / float64(max(db.opts.Level0FileNumCompactionTrigger, 1))
	if t := db.opts.Level0StopWritesTrigger; t > 0 && n >= t {
		// Writes are stopped: L0 must compact even with a larger trigger.
		scores[0] = max(scores[0], 1)
	}
	for level := 1; level < db.numLevels-1; level++ {
		var b uint64
		for _, f := range v.levels[level] {
			if !f.compacting {
				b += f.size
			}
		}
		scores[level] = float64(b) / db.maxBytesForLevel(level)
	}
	return scores
}

func anyCompacting(files []*fileMeta) bool {
	for _, f := range files {
		if f.compacting {
			return true
		}
	}
	return false
}

func keyRange(sets ...[]*fileMeta) (smallest, largest []byte) {
	for _, files := range sets {
		for _, f := range files {
			if smallest == nil || compareKeys(f.smallest, smallest) < 0 {
				smallest = f.smallest
			}
			if largest == nil || compareKeys(f.largest, largest) > 0 {
				largest = f.largest
			}
		}
	}
	return smallest, largest
}

// newCompaction fills in the output-level inputs, range and flags of a
// compaction in family f, or returns nil when an input is already being
// compacted. With levels between level and outputLevel (CompactFiles),
// their tables overlapping the range are inputs too, each widening the
// range for the levels below it, as RocksDB's CompactFiles takes them:
// left out, their versions of the keys, older than the inputs', would lie
// above the output and hide it from reads, and a tombstone dropped at the
// bottom would bring them back.
func (db *DB) newCompaction(f *family, level, outputLevel int, inputs []*fileMeta) *compaction {
	v := f.current
	if len(inputs) == 0 || anyCompacting(inputs) {
		return nil
	}
	c := &compaction{level: level, outputLevel: outputLevel, fam: f}
	sets := [][]*fileMeta{inputs}
	s, l := keyRange(inputs)
	for mid := level + 1; mid < outputLevel; mid++ {
		files := v.overlapping(mid, s, l)
		if len(files) == 0 {
			continue
		}
		if anyCompacting(files) {
			return nil
		}
		c.middle = append(c.middle, levelInput{level: mid, files: files})
		sets = append(sets, files)
		s, l = keyRange(sets...)
	}
	var next []*fileMeta
	if outputLevel != level {
		next = v.overlapping(outputLevel, s, l)
	}
	if anyCompacting(next) {
		return nil
	}
	c.inputs[0], c.inputs[1] = inputs, next
	c.smallest, c.largest = keyRange(append(sets, next)...)
	c.bottommost = true
	for deeper := outputLevel + 1; deeper < len(v.levels); deeper++ {
		if len(v.overlapping(deeper, c.smallest, c.largest)) > 0 {
			c.bottommost = false
			break
		}
	}
	// A move keeps a table's format: where the output level takes another
	// format than the input level (rtable below L0), the tables are
	// rewritten.
	c.trivialMove = outputLevel != level && len(next) == 0 && len(c.middle) == 0 && disjoint(inputs) &&
		db.levelFormat(level) == db.levelFormat(outputLevel)
	return c
}

// disjoint reports whether no two of files share a user key, so that they
// can sit side by side in a level >= 1: then a compaction with nothing to
// merge with below moves them all, as RocksDB moves non-overlapping L0
// files. fillseq's L0 tables never overlap, and rewriting each batch of them
// into L1 was 22% of native fillseq's CPU samples at 5M keys.
func disjoint(files []*fileMeta) bool {
	if len(files) == 1 {
		return true
	}
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b *fileMeta) int { return compareKeys(a.smallest, b.smallest) })
	for i := 1; i < len(sorted); i++ {
		if compareKeys(sorted[i-1].largest, sorted[i].smallest) >= 0 {
			return false
		}
	}
	return true
}

func (c *compaction) markCompacting(on bool) {
	for _, set := range c.inputs {
		for _, f := range set {
			f.compacting = on
		}
	}
	for _, in := range c.middle {
		for _, f := range in.files {
			f.compacting = on
		}
	}
}

// pickCompaction picks a compaction in the first column family that needs
// one, the default first (DB.mu held).
func (db *DB) pickCompaction() *compaction {
	if c := db.pickCompactionIn(db.def); c != nil {
		return c
	}
	for _, f := range db.mu.vs.families.live {
		if c := db.pickCompactionIn(f); c != nil {
			return c
		}
	}
	if len(db.mu.readMarked) > 0 {
		return db.pickReadCompaction()
	}
	return nil
}

// pickCompactionIn chooses the level of f with the highest score >= 1
// (DB.mu held).
func (db *DB) pickCompactionIn(f *family) *compaction {
	if c, styled := db.pickStyled(f); styled {
		if c != nil {
			c.fam = f
		}
		return c
	}
	v := f.current
	scores := db.levelScores(v)
	tried := make([]bool, len(scores))
	for {
		best := -1
		for level, s := range scores {
			if !tried[level] && s >= 1 && (best < 0 || s > scores[best]) {
				best = level
			}
		}
		if best < 0 {
			return nil
		}
		tried[best] = true
		if c := db.pickFromLevel(f, best); c != nil {
			c.markCompacting(true)
			return c
		}
	}
}

func (db *DB) pickFromLevel(fam *family, level int) *compaction {
	v := fam.current
	if level == 0 {
		// All of L0 at once: L0 tables overlap, so a subset could leave an
		// older version above a newer one.
		return db.newCompaction(fam, 0, 1, append([]*fileMeta(nil), v.levels[0]...))
	}
	files := v.levels[level]
	if db.opts.CompactionPri != priRoundRobin {
		for _, f := range db.filesByPriority(v, level) {
			if c := db.newCompaction(fam, level, level+1, []*fileMeta{f}); c != nil {
				return c
			}
		}
		return nil
	}
	start := 0
	if p := fam.compactPointer[level]; p != nil {
		start = findFile(files, p)
		if start < len(files) && compareKeys(files[start].largest, p) == 0 {
			start++
		}
	}
	for i := range files {
		f := files[(start+i)%len(files)]
		if c := db.newCompaction(fam, level, level+1, []*fileMeta{f}); c != nil {
			fam.compactPointer[level] = f.largest
			return c
		}
	}
	return nil
}
