package lsm

import (
	"cmp"
	"slices"
)

// The orders in which a level compaction tries the tables of a level
// (compaction_pri), RocksDB's CompactionPri values.
const (
	priByCompensatedSize      = 0 // largest compensated size first
	priOldestLargestSeqFirst  = 1 // the table whose newest entry is oldest first
	priOldestSmallestSeqFirst = 2 // the table whose oldest entry is oldest first
	priMinOverlappingRatio    = 3 // least bytes below per byte of the table first (RocksDB's default)
	priRoundRobin             = 4 // the table after the last one compacted, cycling through the level
)

// filesByPriority returns level's tables of v (level >= 1, sorted by key)
// in the order compaction_pri tries them, for every priority but
// priRoundRobin (DB.mu held).
func (db *DB) filesByPriority(v *version, level int) []*fileMeta {
	files := slices.Clone(v.levels[level])
	switch db.opts.CompactionPri {
	case priByCompensatedSize:
		slices.SortStableFunc(files, func(a, b *fileMeta) int { return cmp.Compare(compensatedSize(b), compensatedSize(a)) })
	case priOldestLargestSeqFirst:
		slices.SortStableFunc(files, func(a, b *fileMeta) int { return cmp.Compare(a.largestSeq, b.largestSeq) })
	case priOldestSmallestSeqFirst:
		slices.SortStableFunc(files, func(a, b *fileMeta) int { return cmp.Compare(a.smallestSeq, b.smallestSeq) })
	default:
		var below []*fileMeta
		if level+1 < len(v.levels) {
			below = v.levels[level+1]
		}
		ratio := overlapRatios(files, below)
		idx := make([]int, len(files))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(ratio[a], ratio[b]) })
		sorted := make([]*fileMeta, len(files))
		for i, j := range idx {
			sorted[i] = files[j]
		}
		files = sorted
	}
	return files
}

// overlapRatios returns, for each of files (one level, in key order), the
// bytes of the tables of below (the next level, in key order) its key range
// overlaps, times 1024, over its compensated size: RocksDB's
// kMinOverlappingRatio score, lowest compacted first, so a compaction
// rewrites the fewest bytes of the level below per byte it moves down.
func overlapRatios(files, below []*fileMeta) []uint64 {
	ratio := make([]uint64, len(files))
	j := 0
	for i, f := range files {
		for j < len(below) && compareKeys(below[j].largest, f.smallest) < 0 {
			j++
		}
		var overlap uint64
		for k := j; k < len(below) && compareKeys(below[k].smallest, f.largest) <= 0; k++ {
			overlap += below[k].size
		}
		ratio[i] = overlap * 1024 / max(compensatedSize(f), 1)
	}
	return ratio
}

// compensatedSize is a table's size for compaction priority: its bytes,
// plus, when at least half its entries are deletions, twice the bytes that
// the deletions beyond half may free below, estimated at the table's mean
// entry size (RocksDB weighs deletions alike, at the mean value size of
// the tables it has read properties of).
func compensatedSize(f *fileMeta) uint64 {
	if f.numEntries == 0 || f.numDeletions*2 < f.numEntries {
		return f.size
	}
	mean := f.size / f.numEntries
	return f.size + (f.numDeletions*2-f.numEntries)*mean*2
}
