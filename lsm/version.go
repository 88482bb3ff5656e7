package lsm

import (
	"bytes"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/godbbench/godbbench/internal/invariants"
)

// compareKeys orders user keys bytewise.
func compareKeys(a, b []byte) int { return bytes.Compare(a, b) }

// fileMeta describes one table. It is shared by every version that lists the
// file; refs counts those versions, and the table is deleted when it drops to
// zero after the file left the current version.
type fileMeta struct {
	num, size                uint64
	smallest, largest        []byte
	smallestSeq, largestSeq  uint64
	numEntries, numDeletions uint64
	// numRangeDels counts the table's range tombstones (its
	// range-deletion block); reads consult only tables where it is > 0.
	numRangeDels uint64

	refs       atomic.Int32
	compacting bool // guarded by DB.mu
	// inL0: the latest version installed that lists the table has it in
	// level 0 (versionSet.install). A reader opened then may pin the
	// table's index and filter (DB.pinsIndexAndFilter).
	inL0 atomic.Bool
	// wastedReads counts the reads that probed the table in vain; the
	// one that reaches readAllowance(size) queues it for compaction
	// (compaction_read.go).
	wastedReads atomic.Int64

	// reader is the open table, opened on first use (the table cache: a
	// pointer per file instead of a map lookup per read; tablecache.go
	// says who sets and clears it when max_open_files bounds it).
	reader atomic.Pointer[openTable]
	openMu sync.Mutex
}

// unref drops one version's reference to the table and reports whether it
// was the last.
func (f *fileMeta) unref() bool {
	n := f.refs.Add(-1)
	if invariants.Enabled {
		checkUnref("table", f.num, n)
	}
	return n == 0
}

func (f *fileMeta) overlaps(start, end []byte) bool {
	if end != nil && compareKeys(f.smallest, end) > 0 {
		return false
	}
	if start != nil && compareKeys(f.largest, start) < 0 {
		return false
	}
	return true
}

// version is an immutable list of the tables in each level. Level 0 is sorted
// newest first (largest sequence descending); other levels by smallest key,
// with disjoint key ranges.
type version struct {
	levels [][]*fileMeta
	num    uint64 // version number, shown by the sstables property
	refs   atomic.Int32
	// release is called once when refs drops to zero.
	release func(v *version)
	// blobs are the live blob files by number (blob_file.go); never
	// changed once the version is built.
	blobs map[uint64]blobFileState
	// released is set when refs dropped to zero (invariants builds only):
	// a version is never referenced or released again after that.
	released atomic.Bool
	// dels are the range tombstones of its tables (rangedel_read.go).
	dels versionRangeDels
}

func (v *version) ref() {
	v.refs.Add(1)
	if invariants.Enabled && v.released.Load() {
		invariants.Violated("lsm: version %d referenced after its release", v.num)
	}
}

func (v *version) unref() {
	n := v.refs.Add(-1)
	if invariants.Enabled {
		checkUnref("version", v.num, n)
		if n == 0 && v.released.Swap(true) {
			invariants.Violated("lsm: version %d released twice", v.num)
		}
	}
	if n == 0 && v.release != nil {
		v.release(v)
	}
}

func levelBytes(files []*fileMeta) uint64 {
	var n uint64
	for _, f := range files {
		n += f.size
	}
	return n
}

// overlapping returns the files of level that intersect [start, end] (nil is
// unbounded).
func (v *version) overlapping(level int, start, end []byte) []*fileMeta {
	var out []*fileMeta
	for _, f := range v.levels[level] {
		if f.overlaps(start, end) {
			out = append(out, f)
		}
	}
	return out
}

// findFile returns the index of the first file in a sorted level whose
// largest key is >= key.
func findFile(files []*fileMeta, key []byte) int {
	lo, hi := 0, len(files)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compareKeys(files[m].largest, key) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func sortLevel(level int, files []*fileMeta) {
	if level == 0 {
		sort.Slice(files, func(i, j int) bool {
			if files[i].largestSeq != files[j].largestSeq {
				return files[i].largestSeq > files[j].largestSeq
			}
			return files[i].num > files[j].num
		})
		return
	}
	sort.Slice(files, func(i, j int) bool { return compareKeys(files[i].smallest, files[j].smallest) < 0 })
}

// apply returns the version that results from applying e to v. It checks the
// level invariants so a corrupt MANIFEST is reported rather than served.
// checkEdit refuses an edit that deletes a table the version does not hold
// at that level, or adds a table number the version already holds (other
// than one the same edit deletes), as RocksDB's VersionBuilder does: such
// an edit comes from a damaged or foreign MANIFEST, and applying it would
// lose a table or list one twice.
func (v *version) checkEdit(e *versionEdit, deleted map[uint64]int) error {
	present := map[uint64]int{}
	if v != nil {
		for level, files := range v.levels {
			for _, f := range files {
				present[f.num] = level
			}
		}
	}
	for _, d := range e.deleted {
		level, ok := present[d.fileNum]
		if !ok {
			return fmt.Errorf("%w: Cannot delete table file #%d from level %d since it is not in the LSM tree", ErrCorruptManifest, d.fileNum, d.level)
		}
		if level != d.level {
			return fmt.Errorf("%w: Cannot delete table file #%d from level %d since it is on level %d", ErrCorruptManifest, d.fileNum, d.level, level)
		}
	}
	added := map[uint64]int{}
	for _, a := range e.added {
		if level, ok := added[a.meta.num]; ok {
			return fmt.Errorf("%w: Cannot add table file #%d to level %d since it is already added to level %d", ErrCorruptManifest, a.meta.num, a.level, level)
		}
		added[a.meta.num] = a.level
		if level, ok := present[a.meta.num]; ok {
			if _, gone := deleted[a.meta.num]; !gone {
				return fmt.Errorf("%w: Cannot add table file #%d to level %d since it is already in the LSM tree on level %d", ErrCorruptManifest, a.meta.num, a.level, level)
			}
		}
	}
	return nil
}

func (v *version) apply(e *versionEdit, numLevels int) (*version, error) {
	nv := &version{levels: make([][]*fileMeta, numLevels)}
	deleted := map[uint64]int{}
	for _, d := range e.deleted {
		if d.level >= numLevels {
			return nil, fmt.Errorf("%w: deleted table %d in level %d beyond num_levels %d", ErrCorruptManifest, d.fileNum, d.level, numLevels)
		}
		deleted[d.fileNum] = d.level
	}
	if err := v.checkEdit(e, deleted); err != nil {
		return nil, err
	}
	for level := range numLevels {
		var src []*fileMeta
		if v != nil && level < len(v.levels) {
			src = v.levels[level]
		}
		files := make([]*fileMeta, 0, len(src)+len(e.added))
		for _, f := range src {
			if l, ok := deleted[f.num]; ok && l == level {
				continue
			}
			files = append(files, f)
		}
		for _, a := range e.added {
			if a.level == level {
				files = append(files, a.meta)
			}
		}
		sortLevel(level, files)
		if level > 0 {
			for i := 1; i < len(files); i++ {
				if compareKeys(files[i-1].largest, files[i].smallest) >= 0 {
					return nil, fmt.Errorf("%w: tables %d and %d overlap in level %d", ErrCorruptManifest, files[i-1].num, files[i].num, level)
				}
			}
		}
		nv.levels[level] = files
	}
	blobs, err := v.applyBlobs(e)
	if err != nil {
		return nil, err
	}
	nv.blobs = blobs
	for _, a := range e.added {
		if a.level >= numLevels {
			return nil, fmt.Errorf("%w: table %d in level %d beyond num_levels %d", ErrCorruptManifest, a.meta.num, a.level, numLevels)
		}
	}
	if v != nil {
		// Levels above num_levels (the DB was opened before with more) must be empty.
		for level := numLevels; level < len(v.levels); level++ {
			if len(v.levels[level]) > 0 {
				return nil, fmt.Errorf("lsm: level %d has tables but num_levels is %d", level, numLevels)
			}
		}
	}
	return nv, nil
}
