package pebble

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/rocksfmt"
)

// How the pebble engine implements engine.Maintainer:
//   - ApproximateSizes is Pebble's EstimateDiskUsage of each range: whole
//     tables inside it, the overlapping data blocks of tables it cuts
//     through; like RocksDB's default, memtables are not counted.
//   - VerifyChecksum opens every live table with Pebble's sstable reader
//     and checks the checksum of every block (Reader.ValidateBlockChecksums:
//     data, index, filter, range deletion, range key, properties and
//     metaindex blocks). A table a compaction deleted after the listing is
//     no longer live and is passed over.
//   - VerifyFileChecksums: Pebble records no whole-file checksums, so with
//     --file_checksum every table is skipped, as RocksDB skips a table with
//     no recorded checksum; without it the call fails as RocksDB's does.
//   - CompactFiles has no Pebble equivalent (Pebble chooses its own
//     compaction inputs and outputs): it compacts the named tables' key
//     range with DB.Compact, which rewrites that range down to the last
//     level holding it rather than into the one level asked for, and says
//     so once.
//   - StatsHistory lists nothing: Pebble keeps no statistics history.
var _ engine.Maintainer = (*DB)(nil)

// maintenanceState is what the maintenance calls need beyond Pebble's DB.
type maintenanceState struct {
	dir           string
	fileChecksums bool
	cache         *pebble.Cache // the block cache; nil when there is none
	cacheBudget   int64         // the cache's share held for memtables (cachebudget.go)
	warnedCompact atomic.Bool
}

// errNoFileChecksumGen is RocksDB's VerifyFileChecksums error without a
// file checksum generator.
var errNoFileChecksumGen = errors.New("Invalid argument: Cannot verify file checksum if options.file_checksum_gen_factory is null")

// ApproximateSizes implements engine.Maintainer.
func (d *DB) ApproximateSizes(ranges []engine.KeyRange, sizes []uint64) error {
	if d.closed.Load() {
		return errClosed
	}
	if err := engine.CheckSizes(ranges, sizes); err != nil {
		return err
	}
	for i := range ranges {
		sizes[i] = 0
		if bytes.Compare(ranges[i].Start, ranges[i].Limit) >= 0 {
			continue
		}
		n, err := d.db.EstimateDiskUsage(ranges[i].Start, ranges[i].Limit)
		if err != nil {
			return err
		}
		sizes[i] = n
	}
	return nil
}

// tableName is a live table's file name, as LiveFiles gives it.
func tableName(t *pebble.SSTableInfo) string {
	return fmt.Sprintf("%06d.sst", uint64(t.BackingSSTNum))
}

// VerifyChecksum implements engine.Maintainer.
func (d *DB) VerifyChecksum() error {
	if d.closed.Load() {
		return errClosed
	}
	levels, err := d.db.SSTables()
	if err != nil {
		return err
	}
	var missing []string
	for _, tables := range levels {
		for i := range tables {
			path := filepath.Join(d.maint.dir, tableName(&tables[i]))
			if err := d.validateTable(path); err != nil {
				if errors.Is(err, os.ErrNotExist) {
					missing = append(missing, tableName(&tables[i]))
					continue // compacted away since the listing, unless still live
				}
				return fmt.Errorf("Corruption: %s: %v", path, err)
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	// A table gone from the directory that a fresh listing still names was
	// lost, not compacted away.
	if levels, err = d.db.SSTables(); err != nil {
		return err
	}
	for _, tables := range levels {
		for i := range tables {
			if name := tableName(&tables[i]); slices.Contains(missing, name) {
				return fmt.Errorf("Corruption: %s: a live table is missing", filepath.Join(d.maint.dir, name))
			}
		}
	}
	return nil
}

// validateTable checks every block checksum of the table at path.
func (d *DB) validateTable(path string) (err error) {
	reader, err := openTable(d.fs, path)
	if err != nil {
		return err
	}
	defer func() {
		// Pebble's readers panic on some damage.
		if p := recover(); p != nil {
			err = fmt.Errorf("reading the table: %v", p)
		}
		if cerr := reader.Close(); err == nil {
			err = cerr
		}
	}()
	return reader.ValidateBlockChecksums()
}

// VerifyFileChecksums implements engine.Maintainer.
func (d *DB) VerifyFileChecksums() error {
	if d.closed.Load() {
		return errClosed
	}
	if !d.maint.fileChecksums {
		return errNoFileChecksumGen
	}
	return nil
}

// LiveFiles implements engine.Maintainer.
func (d *DB) LiveFiles() ([]engine.LiveFile, error) {
	if d.closed.Load() {
		return nil, errClosed
	}
	levels, err := d.db.SSTables()
	if err != nil {
		return nil, err
	}
	var out []engine.LiveFile
	for level, tables := range levels {
		for i := range tables {
			out = append(out, engine.LiveFile{Name: tableName(&tables[i]), Level: level, Size: tables[i].Size})
		}
	}
	return out, nil
}

// CompactFiles implements engine.Maintainer: DB.Compact over the key range
// of the named tables (see the comment at the top of this file).
func (d *DB) CompactFiles(names []string, outputLevel int) error {
	if d.closed.Load() {
		return errClosed
	}
	levels, err := d.db.SSTables()
	if err != nil {
		return err
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[strings.TrimPrefix(n, "/")] = true
	}
	var smallest, largest []byte
	found := 0
	for _, tables := range levels {
		for i := range tables {
			t := &tables[i]
			if !want[tableName(t)] {
				continue
			}
			found++
			if smallest == nil || bytes.Compare(t.Smallest.UserKey, smallest) < 0 {
				smallest = t.Smallest.UserKey
			}
			if largest == nil || bytes.Compare(t.Largest.UserKey, largest) > 0 {
				largest = t.Largest.UserKey
			}
		}
	}
	if found != len(want) {
		return errors.New("Invalid argument: Specified compaction input file does not exist in column family default (" + strconv.Itoa(len(want)-found) + " of the named tables are not live).")
	}
	if d.maint.warnedCompact.CompareAndSwap(false, true) {
		d.logger.warnf("WARNING: engine pebble has no CompactFiles; compacting the tables' key range instead, which rewrites it down to the last level holding it, not into L%d\n", outputLevel)
	}
	return d.Compact(smallest, largest, -1)
}

// StatsHistory implements engine.Maintainer: Pebble keeps no statistics
// history, so there is nothing to list (with db_bench's defaults RocksDB's
// history is empty too).
func (d *DB) StatsHistory(func(unixSeconds uint64, name string, value uint64)) error {
	if d.closed.Load() {
		return errClosed
	}
	return nil
}

// blockCacheEntryStats renders "rocksdb.block-cache-entry-stats" from
// Pebble's cache metrics. Pebble does not tell what a cached block is
// (data, index or filter), so all of them are listed under RocksDB's role
// for entries of no known role, Misc. The capacity is the blocks' share,
// cache_size, without the part held for memtables (cachebudget.go). Each
// call is a collection of its own.
func (d *DB) blockCacheEntryStats() (string, bool) {
	c := d.maint.cache
	if c == nil {
		return "", false
	}
	start := time.Now()
	m := c.Metrics()
	capacity := max(c.MaxSize()-d.maint.cacheBudget, 1)
	s := rocksfmt.CacheEntryStats{
		ID:          fmt.Sprintf("PebbleClockProCache@%p#%d", c, os.Getpid()),
		Capacity:    uint64(capacity),
		Usage:       uint64(m.Size),
		TableSize:   uint64(m.Count),
		Occupancy:   uint64(m.Count),
		Collections: 1,
		LastCopies:  1,
		LastSecs:    time.Since(start).Seconds(),
		Roles:       []rocksfmt.CacheRoleCharge{{Role: "Misc", Count: uint64(m.Count), Bytes: uint64(m.Size)}},
	}
	return s.String(), true
}
