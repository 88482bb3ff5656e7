package native

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/rocksfmt"
)

// The native engine implements engine.Maintainer with the LSM's own calls:
// approximate sizes from the tables' indexes (lsm/approxsize.go), checksum
// verification of every block (lsm/verify.go) and CompactFiles through the
// compaction machinery (lsm/compactlevel.go). It keeps no statistics
// history and records no whole-file checksums (see VerifyFileChecksums).
var _ engine.Maintainer = (*DB)(nil)

// ApproximateSizes implements engine.Maintainer, one range at a time
// (lsm.DB.ApproximateSize).
func (db *DB) ApproximateSizes(ranges []engine.KeyRange, sizes []uint64) error {
	if err := engine.CheckSizes(ranges, sizes); err != nil {
		return err
	}
	for i := range ranges {
		n, err := db.d.ApproximateSize(ranges[i].Start, ranges[i].Limit)
		if err != nil {
			return err
		}
		sizes[i] = n
	}
	return nil
}

// VerifyChecksum implements engine.Maintainer (lsm.DB.VerifyChecksum).
func (db *DB) VerifyChecksum() error { return db.d.VerifyChecksum() }

// VerifyFileChecksums implements engine.Maintainer: the native tables have
// no recorded whole-file checksum, so with --file_checksum every table is
// skipped, as RocksDB skips one without a recorded checksum, and without it
// the call fails as RocksDB's does (lsm.DB.VerifyFileChecksums).
func (db *DB) VerifyFileChecksums() error { return db.d.VerifyFileChecksums() }

// LiveFiles implements engine.Maintainer; a table is named by its file
// name in the DB directory, "000012.sst".
func (db *DB) LiveFiles() ([]engine.LiveFile, error) {
	files, err := db.d.LiveFiles()
	if err != nil {
		return nil, err
	}
	out := make([]engine.LiveFile, len(files))
	for i, f := range files {
		out[i] = engine.LiveFile{Name: fmt.Sprintf("%06d.sst", f.Num), Level: f.Level, Size: f.Size}
	}
	return out, nil
}

// CompactFiles implements engine.Maintainer (lsm.DB.CompactFiles). Names
// are file names as LiveFiles gives them, with or without RocksDB's
// leading "/".
func (db *DB) CompactFiles(names []string, outputLevel int) error {
	nums := make([]uint64, len(names))
	for i, name := range names {
		base := strings.TrimSuffix(strings.TrimPrefix(name, "/"), ".sst")
		n, err := strconv.ParseUint(base, 10, 64)
		if err != nil || base == "" {
			return fmt.Errorf("Invalid argument: Specified compaction input file %s does not exist in column family default.", name)
		}
		nums[i] = n
	}
	return db.d.CompactFiles(nums, outputLevel)
}

// CompactsNamedFiles implements engine.NamedFileCompactor: lsm's
// CompactFiles compacts exactly the named tables.
func (db *DB) CompactsNamedFiles() {}

// StatsHistory implements engine.Maintainer: the native engine keeps no
// statistics history (it has no stats_persist_period_sec thread), so there
// is nothing to list. With db_bench's defaults RocksDB's history is empty
// too: it persists statistics only with --statistics, every 600 s.
func (db *DB) StatsHistory(func(unixSeconds uint64, name string, value uint64)) error {
	return nil
}

// blockCacheEntryStats renders "rocksdb.block-cache-entry-stats" from a
// fresh count of the block cache. Every entry is a data block (the tables'
// indexes and filters live outside the cache), so DataBlock is the only
// role listed. Each call is a collection of its own: collections and
// last_copies read 1, secs_since 0. Without a block cache there is no such
// property, as in RocksDB.
func (db *DB) blockCacheEntryStats() (string, bool) {
	start := time.Now()
	r := db.d.BlockCacheReport()
	if r.ID == "" {
		return "", false
	}
	s := rocksfmt.CacheEntryStats{
		ID:          r.ID,
		Capacity:    uint64(r.Capacity),
		Usage:       uint64(r.Usage),
		TableSize:   uint64(r.Entries.Slots),
		Occupancy:   uint64(r.Entries.DataBlocks),
		Collections: 1,
		LastCopies:  1,
		LastSecs:    time.Since(start).Seconds(),
		Roles:       []rocksfmt.CacheRoleCharge{{Role: "DataBlock", Count: uint64(r.Entries.DataBlocks), Bytes: uint64(r.Entries.DataBytes)}},
	}
	return s.String(), true
}
