package dbbench

import (
	"errors"
	"fmt"
	"strings"

	"github.com/godbbench/godbbench/dbbench/flags"
	"github.com/godbbench/godbbench/mergeop"
)

// db_bench validates its flags in three places, and where a check sits
// decides what a failing run prints before the message:
//
//   - before the "Set seed" line (makeConfig): --statistics with
//     --statistics_string, then the --compression_type, --wal_compression
//     and --compressed_secondary_cache_compression_type names; then the
//     ranges of flagLimits (flaglimits.go), which db_bench does not check;
//   - after it (checkAfterSeed), in this order: --use_existing_keys,
//     --compaction_fadvice, --value_size_distribution_type, then (not a
//     db_bench check: it aborts later) --value_size_min against
//     --value_size_max, --seek_missing_prefix, --cache_type, --prefix_size against
//     --key_size, --compression_ratio, --key_size, --perf_level;
//   - inside the first Open, between the two "Initializing RocksDB Options"
//     lines and the "Integrated BlobDB" one (checkHashMemtable): a
//     --memtablerep of prefix_hash or hash_linkedlist needs --prefix_size;
//   - inside the first Open, after the "Initializing RocksDB Options" lines
//     (checkAtOpen): the --max_bytes_for_level_multiplier_additional count,
//     the --merge_operator name, --user_timestamp_size (0 or 8), the
//     --blob_compression_type name, then --readonly or --use_secondary_db
//     with a transaction database.
//
// The first failing check is the one reported; the exit code is 1.

// compactionFadvices are the --compaction_fadvice values db_bench accepts
// (compared without regard to case).
var compactionFadvices = setOf("none", "normal", "sequential", "willneed")

// cacheTypes are the --cache_type values db_bench 7.8.3 builds a cache for
// (compared as typed).
var cacheTypes = setOf("lru_cache", "fast_lru_cache", "hyper_clock_cache")

// checkAfterSeed runs the start-up checks db_bench makes after it has printed
// the "Set seed" line (so a --seed=0 run shows that line first); toStdout
// marks the messages db_bench prints on stdout.
func checkAfterSeed(f *flags.Flags, c *config) (toStdout bool, err error) {
	if f.UseExistingKeys && !f.UseExistingDb {
		return false, fmt.Errorf("`-use_existing_db` must be true for `-use_existing_keys` to be settable")
	}
	if !compactionFadvices[strings.ToLower(f.CompactionFadvice)] {
		return true, fmt.Errorf("Unknown compaction fadvice:%s", f.CompactionFadvice)
	}
	switch strings.ToLower(c.valueDist) {
	case "fixed", "uniform", "normal":
		c.valueDist = strings.ToLower(c.valueDist)
	default:
		return true, fmt.Errorf("Cannot parse distribution type '%s'", f.ValueSizeDistributionType)
	}
	if c.valueDist != "fixed" && c.valueSizeMin > c.valueSizeMax {
		// db_bench aborts on an assertion in RandomGenerator::Generate.
		return false, fmt.Errorf("Invalid value for --value_size_min: %d, must be <= --value_size_max (%d)", c.valueSizeMin, c.valueSizeMax)
	}
	if f.SeekMissingPrefix && f.PrefixSize <= 8 {
		return false, fmt.Errorf("prefix_size > 8 required by --seek_missing_prefix")
	}
	// The block cache is built only for a positive --cache_size.
	if f.CacheSize > 0 && !cacheTypes[f.CacheType] {
		if f.CacheType == "clock_cache" {
			return false, fmt.Errorf("Old clock cache implementation has been removed.")
		}
		return false, errNoNewline{"Cache type not supported."}
	}
	if c.prefixSize > c.keySize {
		return false, errNoNewline{"prefix size is larger than key size"}
	}
	if c.compressionRatio > 1 {
		return false, fmt.Errorf("compression_ratio should be between 0 and 1")
	}
	if c.keySize < 1 {
		return false, fmt.Errorf("key_size must be at least 1")
	}
	// db_bench hands --perf_level to SetPerfLevel on every benchmark thread,
	// which asserts kUninitialized < level < kOutOfBounds (Debian's build
	// aborts there); refuse it before any benchmark runs instead.
	if c.perfLevel < 1 || c.perfLevel > 5 {
		return false, fmt.Errorf("Invalid --perf_level=%d: SetPerfLevel takes 1 (kDisable) to 5 (kEnableTime)", c.perfLevel)
	}
	return false, nil
}

// checkAtOpen returns the error db_bench's first Open reports while it turns
// the flags into options, or nil.
func checkAtOpen(f *flags.Flags) error {
	if s := f.MaxBytesForLevelMultiplierAdditional; s != "" {
		if n := len(strings.Split(s, ",")); n != int(f.NumLevels) {
			return fmt.Errorf("Insufficient number of fanouts specified %d", n)
		}
	}
	if _, err := mergeop.Lookup(f.MergeOperator); err != nil {
		return errors.New(mergeop.InvalidFlagMessage(f.MergeOperator, err))
	}
	if f.UserTimestampSize != 0 && f.UserTimestampSize != 8 {
		return fmt.Errorf("Only 64 bits timestamps are supported.")
	}
	if _, ok := compressionNames[strings.ToLower(f.BlobCompressionType)]; !ok {
		return fmt.Errorf("Cannot parse compression type '%s'", f.BlobCompressionType)
	}
	if f.Readonly && f.TransactionDb {
		return fmt.Errorf("Cannot use readonly flag with transaction_db")
	}
	if f.UseSecondaryDb && (f.TransactionDb || f.OptimisticTransactionDb) {
		return fmt.Errorf("Cannot use use_secondary_db flag with transaction_db")
	}
	return nil
}

// checkHashMemtable is db_bench's check that the prefix-hashed memtables
// get a prefix extractor, on every engine (the native engine's hash reps
// bucket keys by it; the others would not use it, but db_bench refuses the
// run all the same).
func checkHashMemtable(memtablerep string, prefixSize int) error {
	name, _, _ := strings.Cut(memtablerep, ":")
	switch strings.ToLower(name) {
	case "prefix_hash", "hashskiplistrepfactory", "hash_linkedlist", "hashlinklistrepfactory":
		if prefixSize == 0 {
			return fmt.Errorf("prefix_size should be non-zero if PrefixHash or HashLinkedList memtablerep is used")
		}
	}
	return nil
}
