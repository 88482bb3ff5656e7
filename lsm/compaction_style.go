package lsm

import (
	"fmt"
	"math"

	"github.com/godbbench/godbbench/options"
)

// RocksDB's compaction styles, the values of options.CompactionStyle
// (--compaction_style).
const (
	styleLevel     = 0
	styleUniversal = 1
	styleFIFO      = 2
)

// universalOptions are RocksDB's CompactionOptionsUniversal fields the
// picker reads, with trigger, level0_file_num_compaction_trigger.
type universalOptions struct {
	sizeRatio            uint64 // percent of slack when adding a run (default 1)
	minMergeWidth        uint64 // fewest runs merged for size ratio (default 2)
	maxMergeWidth        uint64 // most runs merged for size ratio (default unbounded)
	maxSizeAmplification uint64 // percent (default 200)
	trigger              int
}

// fifoOptions are RocksDB's CompactionOptionsFIFO fields the picker reads,
// with db_bench's defaults (max_table_files_size 0, allow_compaction
// true), and the column-family options intra-L0 compaction uses.
type fifoOptions struct {
	maxTableFilesSize  uint64
	allowCompaction    bool
	trigger            int
	writeBufferSize    uint64
	maxCompactionBytes uint64
}

// universalSettings reads the universal options as db_bench sets them:
// a flag left at 0 keeps RocksDB's default, so no entry is in Extra.
func universalSettings(o *options.Options) universalOptions {
	return universalOptions{
		sizeRatio:            o.UniversalOption("size_ratio", 1),
		minMergeWidth:        o.UniversalOption("min_merge_width", 2),
		maxMergeWidth:        o.UniversalOption("max_merge_width", math.MaxUint32),
		maxSizeAmplification: o.UniversalOption("max_size_amplification_percent", 200),
		trigger:              max(o.Level0FileNumCompactionTrigger, 1),
	}
}

// fifoSettings reads the FIFO options as db_bench sets them. RocksDB's
// max_compaction_bytes of 0 means 25 target files.
func fifoSettings(o *options.Options) fifoOptions {
	f := fifoOptions{
		maxTableFilesSize:  o.FIFOOption("max_table_files_size", 0),
		allowCompaction:    o.FIFOAllowCompaction(),
		trigger:            max(o.Level0FileNumCompactionTrigger, 1),
		writeBufferSize:    uint64(max(o.WriteBufferSize, 0)),
		maxCompactionBytes: o.MaxCompactionBytes,
	}
	if f.maxCompactionBytes == 0 {
		f.maxCompactionBytes = uint64(max(o.TargetFileSizeBase, 0)) * 25
	}
	return f
}

// styleOptions returns the options the compaction style runs with: FIFO,
// which keeps every table in L0, has no L0 write stalls (RocksDB sets
// both triggers to the largest int), since L0 holds all the data, and
// accepts num_levels 1 (RocksDB's own setting for FIFO), kept at 2 here,
// the fewest levels this package opens.
func styleOptions(o *options.Options) *options.Options {
	if o.CompactionStyle != styleFIFO {
		return o
	}
	c := *o
	c.Level0SlowdownWritesTrigger, c.Level0StopWritesTrigger = 0, 0
	c.NumLevels = max(c.NumLevels, 2)
	return &c
}

// pickStyled picks a compaction for the universal and FIFO styles (DB.mu
// held): ok is false for the leveled style, which pickCompaction handles.
func (db *DB) pickStyled(f *family) (c *compaction, ok bool) {
	v := f.current
	switch db.opts.CompactionStyle {
	case styleUniversal:
		return db.pickUniversal(v), true
	case styleFIFO:
		return db.pickFIFO(v), true
	}
	return nil, false
}

// compactStyled is a manual compaction (CompactRange) for the universal
// and FIFO styles, as RocksDB runs them: universal merges every run into
// the last level, whatever the range; FIFO runs its picker once (DB.mu
// held, no compaction running).
func (db *DB) compactStyled() error {
	var c *compaction
	if db.opts.CompactionStyle == styleUniversal {
		c = db.compactAllRuns()
	} else {
		c = db.pickFIFO(db.def.current)
	}
	if c == nil {
		return nil
	}
	c.fam = db.def
	if err := db.runCompaction(c); err != nil {
		db.mu.bgErr = fmt.Errorf("compaction: %w", err)
		return err
	}
	return nil
}
