package engine

import "fmt"

// Maintainer is the optional interface of an engine that offers RocksDB's
// maintenance calls on an open database, which db_bench's benchmarks
// approximatesizerandom, verifychecksum, verifyfilechecksums, compact0,
// compact1 and stats_history drive.
//
// These calls are one interface of their own, not methods of DB, because
// they serve those few benchmarks only, none of them on a hot path, and
// because an engine either offers RocksDB's maintenance surface as a whole
// or not at all (the engines here all do); DB stays the set of calls every
// benchmark needs. The driver refuses those benchmarks, naming the engine,
// for an engine without it.
type Maintainer interface {
	// ApproximateSizes sets sizes[i] to the approximate bytes on disk of
	// the keys in ranges[i], as RocksDB's DB::GetApproximateSizes with its
	// defaults does: table files only, memtables not counted. sizes
	// shorter than ranges is CheckSizes's error, before anything is
	// written.
	ApproximateSizes(ranges []KeyRange, sizes []uint64) error
	// VerifyChecksum reads every block of every live table and checks its
	// checksum (RocksDB's DB::VerifyChecksum). Damage is an error in
	// RocksDB's words ("Corruption: ...") naming the file.
	VerifyChecksum() error
	// VerifyFileChecksums checks each live table's whole-file checksum
	// against the one recorded when it was written (RocksDB's
	// DB::VerifyFileChecksums). Without a file checksum generator
	// (options.Options.FileChecksums false) it fails with RocksDB's
	// InvalidArgument text; a table with no recorded checksum is skipped,
	// as RocksDB skips it.
	VerifyFileChecksums() error
	// LiveFiles lists the live tables with their levels (RocksDB's
	// GetLiveFilesMetaData).
	LiveFiles() ([]LiveFile, error)
	// CompactFiles compacts the named tables, all of one level, into
	// outputLevel (RocksDB's DB::CompactFiles).
	CompactFiles(names []string, outputLevel int) error
	// StatsHistory calls fn for every statistic of every snapshot of the
	// engine's statistics history (RocksDB's DB::GetStatsHistory over all
	// time), oldest snapshot first, names in order within a snapshot.
	StatsHistory(fn func(unixSeconds uint64, name string, value uint64)) error
}

// KeyRange is the keys from Start (inclusive) to Limit (exclusive),
// RocksDB's Range.
type KeyRange struct{ Start, Limit []byte }

// LiveFile is one live table: its name as the engine lists it, its level
// and its size in bytes. Tables are listed level by level, L0 newest
// first and the other levels in key order, as RocksDB lists them.
type LiveFile struct {
	Name  string
	Level int
	Size  uint64
}

// NamedFileCompactor is the optional interface of a Maintainer whose
// CompactFiles is RocksDB's: exactly the named tables, with the tables of
// the output level they overlap, become tables of the output level (L0
// included, as one table). fillseqdeterministic and
// filluniquerandomdeterministic build their level shapes with it; an
// engine whose CompactFiles only approximates it (Pebble compacts the
// tables' key range) lacks it, and the driver refuses those benchmarks
// naming the engine.
type NamedFileCompactor interface {
	Maintainer
	// CompactsNamedFiles marks the implementation; it does nothing.
	CompactsNamedFiles()
}

// CheckSizes is ApproximateSizes's argument check: one size per range.
func CheckSizes(ranges []KeyRange, sizes []uint64) error {
	if len(sizes) < len(ranges) {
		return fmt.Errorf("Invalid argument: ApproximateSizes of %d ranges into %d sizes", len(ranges), len(sizes))
	}
	return nil
}
