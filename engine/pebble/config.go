package pebble

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/sstable"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// pebbleLevels is Pebble's fixed number of LSM levels (manifest.NumLevels).
const pebbleLevels = 7

// OptionNotes are the options Pebble has no knob for (Ignored; each set
// away from its default is reported once at Open) and the ones it honours
// only for its built-in value (checked one by one in partlyHonoured).
// statistics and stats_level are honoured (statistics.go).
var OptionNotes = engine.Overlay(slices.Concat([]engine.OptionNote{
	{Key: "min_write_buffer_number_to_merge", Ignored: true, How: "Pebble flushes every full memtable on its own"},
	{Key: "db_write_buffer_size", Ignored: true, How: "no cross-column-family memtable budget"},
	{Key: "arena_block_size", Ignored: true, How: "memtable arenas are one allocation of MemTableSize"},
	{Key: "enable_pipelined_write", Ignored: true, How: "Pebble has one commit pipeline design, not switchable"},
	{Key: "skip_list_lookahead", Ignored: true, How: "Pebble's arenaskl has no lookahead"},
	{Key: "memtable_bloom_size_ratio", Ignored: true, How: "no memtable bloom filter"},
	{Key: "level0_slowdown_writes_trigger", Ignored: true, How: "Pebble never slows writes, it only stops them"},
	{Key: "max_bytes_for_level_multiplier_additional", Ignored: true, How: "one multiplier for every level"},
	{Key: "level_compaction_dynamic_level_bytes", Ignored: true, How: "Pebble always sizes levels from the bottom up"},
	{Key: "compaction_pri", Ignored: true, How: "Pebble's picker has its own file priority"},
	{Key: "max_compaction_bytes", Ignored: true, How: "no per-compaction byte limit"},
	{Key: "soft_pending_compaction_bytes_limit", Ignored: true, How: "no debt-based slowdown"},
	{Key: "hard_pending_compaction_bytes_limit", Ignored: true, How: "no debt-based stop"},
	{Key: "delayed_write_rate", Ignored: true, How: "no write slowdown to rate"},
	{Key: "max_background_flushes", Ignored: true, How: "Pebble runs one flush at a time"},
	{Key: "subcompactions", Ignored: true, How: "Pebble splits only manual compactions"},
	{Key: "compression_level", Ignored: true, How: "Pebble's profiles fix the level (zstd 3)"},
	{Key: "compression_max_dict_bytes", Ignored: true, How: "no dictionary compression"},
	{Key: "cache_numshardbits", Ignored: true, How: "Pebble shards by GOMAXPROCS"},
	{Key: "cache_type", Ignored: true, How: "Pebble's cache is always CLOCK-Pro"},
	{Key: "cache_index_and_filter_blocks", Ignored: true, How: "Pebble always caches them in the block cache"},
	{Key: "pin_l0_filter_and_index_blocks_in_cache", Ignored: true, How: "no pinning: all blocks share the cache"},
	{Key: "format_version", Ignored: true, How: "RocksDB table format; Pebble uses FormatNewest"},
	{Key: "optimize_filters_for_hits", Ignored: true, How: "filters are written on every level"},
	{Key: "prefix_size", How: "the Comparer's Split keeps the first prefix_size bytes, so filters hold prefixes only and Get probes a key's prefix; the comparer's name records the length, and a DB made under another setting is refused at open (engine/pebble/prefix.go)"},
	{Key: "use_direct_reads", Ignored: true, How: "Pebble's vfs has no O_DIRECT switch"},
	{Key: "use_direct_io_for_flush_and_compaction", Ignored: true, How: "same for writes"},
	{Key: "mmap_read", Ignored: true, How: "Pebble reads with pread"},
	{Key: "mmap_write", Ignored: true, How: "Pebble writes with write"},
	{Key: "use_fsync", Ignored: true, How: "Pebble syncs with fdatasync/fsync as vfs decides"},
	{Key: "compaction_readahead_size", Ignored: true, How: "Pebble sizes its own readahead"},
	{Key: "max_total_wal_size", Ignored: true, How: "WALs are freed when their memtable flushes"},
	{Key: "advise_random_on_open", Ignored: true, How: "Pebble advises per read pattern itself"},
	{Key: "table_format", How: "block only (Pebble's sstables): any other table format is refused at open"},
	{Key: "wal_recovery_mode", Ignored: true, How: "Pebble: the last WAL's torn tail ends it, other damage fails"},
	{Key: "num_levels", How: "only 7 levels"},
	{Key: "allow_concurrent_memtable_write", How: "memtable writes are always concurrent"},
	{Key: "memtablerep", How: "only its arena skiplist (skip_list)"},
	{Key: "compaction_style", How: "leveled only"},
	{Key: "index_block_restart_interval", How: "fixed at 1"},
	{Key: "whole_key_filtering", How: "filters hold whole keys, or under prefix_size prefixes only"},
	{Key: "checksum_type", How: "CRC32C only (checksum_type=1)"},
	{Key: "verify_checksum", How: "always verified"},
	{Key: "paranoid_checks", How: "always checked"},
	{Key: "max_bytes_for_level_multiplier", How: "whole multipliers only"},
	{Key: "table_cache_numshardbits", How: "0 to 16 only"},
	{Key: "compression_type", How: "snappy, zstd and none; other codecs map to Pebble's nearest profile, with a warning"},
}, valueSeparationNotes, engine.RateLimiterAndRowCacheNotes, engine.ReadOptionNotes,
	engine.ByNameNotes("a RocksDB feature Pebble does not have", valueSeparationHonoured...),
	engine.RocksDBFeatureNotes()), ownReadNotes)

// ownReadNotes are what Pebble does itself with the prefix read options
// that engine.ReadOptionNotes describes for an engine without a prefix
// extractor (engine/pebble/prefix.go); engine.Overlay puts them in place.
var ownReadNotes = []engine.OptionNote{
	{Key: "prefix_same_as_start", How: "SeekGE is Pebble's SeekPrefixGE, which ends the walk at the prefix; a reverse seek walks in total order, and Pebble refuses Prev after a prefix seek"},
	{Key: "total_order_seek", Ignored: true, How: "only prefix_same_as_start seeks probe prefix filters, and always"},
}

// unsupportedOptions are the options Pebble ignores.
var unsupportedOptions = engine.IgnoredKeys(OptionNotes)

// partlyHonoured lists the options that Pebble honours only for the value it
// has built in: they are reported when set explicitly to anything else.
func partlyHonoured(o *options.Options) []string {
	var names []string
	add := func(name string, unsupported bool) {
		if unsupported {
			names = append(names, name)
		}
	}
	add("num_levels", o.NumLevels != pebbleLevels)
	add("allow_concurrent_memtable_write", !o.AllowConcurrentMemtableWrite) // always concurrent
	add("memtablerep", o.Memtablerep != "skip_list")                        // only its arena skiplist
	add("compaction_style", o.CompactionStyle != 0)                         // leveled only
	add("index_block_restart_interval", o.IndexBlockRestartInterval != 1)   // fixed at 1
	add("whole_key_filtering", !o.WholeKeyFiltering && o.PrefixSize <= 0)   // filters hold whole keys
	add("checksum_type", o.ChecksumType != 1)                               // CRC32C only
	add("verify_checksum", !o.VerifyChecksum)                               // always verified
	add("paranoid_checks", !o.ParanoidChecks)                               // always checked
	add("max_bytes_for_level_multiplier", levelMultiplier(o.MaxBytesForLevelMultiplier) == 0)
	add("table_cache_numshardbits", o.TableCacheNumShardBits < 0 || o.TableCacheNumShardBits > 16)
	return names
}

// config is what Open hands to pebble.Open, plus what the wrapper keeps.
type config struct {
	opts        *pebble.Options
	cache       *pebble.Cache // the Open path's reference; unref after pebble.Open
	cacheBudget int64         // bytes added to the cache for memtables; 0: none
	concurrency int           // compactions allowed at once
}

// buildConfig maps o onto Pebble's options and reports, on warn, every
// explicitly set option that Pebble cannot honour or honours only in part.
func buildConfig(o *options.Options, warn io.Writer, logger *logger) (*config, error) {
	if err := engine.RefusedOption(o, "pebble", OptionNotes); err != nil {
		return nil, err
	}
	memSize, err := memTableSize(o, warn)
	if err != nil {
		return nil, err
	}
	if err := checkBlockSize(o); err != nil {
		return nil, err
	}
	o.Warn(warn, "pebble", slices.Concat(unsupportedOptions, partlyHonoured(o))...)

	p := &pebble.Options{
		FormatMajorVersion: pebble.FormatNewest,
		Logger:             logger,
		// Memtables. RocksDB stops writes when max_write_buffer_number
		// memtables are full; Pebble's threshold counts queued memtables the
		// same way and must be at least 2 (RocksDB sanitizes to 2 too).
		MemTableSize:                memSize,
		MemTableStopWritesThreshold: max(2, o.MaxWriteBufferNumber),
		// L0 shape. Pebble's threshold counts sublevels, RocksDB's counts
		// files; in a flush-only L0 the two are the same.
		L0CompactionThreshold:       max(1, o.Level0FileNumCompactionTrigger),
		L0StopWritesThreshold:       max(1, o.Level0FileNumCompactionTrigger, o.Level0StopWritesTrigger),
		LBaseMaxBytes:               int64(min(o.MaxBytesForLevelBase, math.MaxInt64)),
		DisableAutomaticCompactions: o.DisableAutoCompactions,
		DisableWAL:                  o.DisableWAL,
		ReadOnly:                    o.ReadOnly,
		WALDir:                      o.WALDir,
		MaxOpenFiles:                maxOpenFiles(o.OpenFiles),
		BytesPerSync:                bytesPerSync(o.BytesPerSync),
		WALBytesPerSync:             int(min(o.WALBytesPerSync, math.MaxInt32)),
	}
	if o.PrefixSize > 0 {
		p.Comparer = prefixComparer(o.PrefixSize)
	}
	// Pebble's level multiplier (default 10) is an integer knob.
	p.Experimental.LevelMultiplier = levelMultiplier(o.MaxBytesForLevelMultiplier)
	if bits := o.TableCacheNumShardBits; bits >= 0 && bits <= 16 && o.Explicit["table_cache_numshardbits"] {
		p.Experimental.FileCacheShards = 1 << bits
	}

	// Target file sizes: RocksDB's target_file_size_base is L1's target and
	// each deeper level multiplies it; Pebble indexes from Lbase, which is
	// the level L0 compacts into, so [1] gets the base. L0 (flush output)
	// gets the base too: RocksDB writes a flush as one file, and Pebble's
	// flush splits at TargetFileSizes[0].
	size := max(o.TargetFileSizeBase, 1)
	mult := int64(max(o.TargetFileSizeMultiplier, 1))
	p.TargetFileSizes[0] = size
	for l := 1; l < pebbleLevels; l++ {
		p.TargetFileSizes[l] = size
		if size <= math.MaxInt64/mult {
			size *= mult
		}
	}

	// Per-level table options.
	var filter pebble.FilterPolicy
	if o.BloomBits > 0 {
		filter = bloom.FilterPolicy(bloomBits(o.BloomBits))
	}
	// A substitution is said once per codec.
	warned := map[string]bool{}
	sayFix := o.CompressionChosen()
	for l := 0; l < pebbleLevels; l++ {
		lo := &p.Levels[l]
		if o.BlockSize > 0 {
			lo.BlockSize = o.BlockSize
		}
		if o.BlockRestartInterval > 0 {
			lo.BlockRestartInterval = o.BlockRestartInterval
		}
		lo.FilterPolicy = filter
		name := o.LevelCompression(l)
		profile, exact := compressionProfile(name)
		if !exact && sayFix && !warned[name] {
			warned[name] = true
			fmt.Fprintf(warn, "WARNING: engine pebble has no %s compression; using %s\n", name, profile.Name)
		}
		lo.Compression = func() *sstable.CompressionProfile { return profile }
	}

	// Caches. Pebble charges memtables to the block cache; the cache gets
	// two write buffers on top of cache_size, and cacheBudget keeps the
	// block space at cache_size (see cachebudget.go for the numbers).
	// Pebble needs some cache; a size of 0 would make it use its 8 MiB
	// default, so "no cache" (cache_size <= 0) becomes a 1-byte cache, which
	// the memtable reservation leaves with no room for any block.
	cacheSize := int64(1)
	budget := int64(0)
	if o.CacheSize > 0 {
		budget = 2 * int64(memSize)
		cacheSize = min(o.CacheSize, math.MaxInt64-budget) + budget
	}
	cache := pebble.NewCache(cacheSize)
	p.Cache = cache

	applyValueSeparation(p, o)
	conc := compactionConcurrency(o)
	p.CompactionConcurrencyRange = func() (int, int) { return conc, conc }
	return &config{opts: p, cache: cache, cacheBudget: budget, concurrency: conc}, nil
}

// compactionConcurrency follows RocksDB's GetBGJobLimits: with both
// max_background_compactions and max_background_flushes unset (-1), flushes
// get max(1, jobs/4) of max_background_jobs and compactions the rest, at
// least 1. Pebble runs flushes outside this limit, so only compactions count.
func compactionConcurrency(o *options.Options) int {
	if o.MaxBackgroundCompactions > 0 {
		return o.MaxBackgroundCompactions
	}
	jobs := max(o.MaxBackgroundJobs, 1)
	flushes := o.MaxBackgroundFlushes
	if flushes <= 0 {
		flushes = max(1, jobs/4)
	}
	return max(1, jobs-flushes)
}

// bytesPerSync maps RocksDB's bytes_per_sync, where 0 means never sync
// incrementally, onto Pebble's, where 0 means the 512 KiB default: 0 becomes
// the largest value, so the file is synced only when it is finished.
func bytesPerSync(n uint64) int {
	if n == 0 || n > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(n)
}

// compressionProfile returns Pebble's profile for a db_bench compression
// name and whether it is that algorithm (false: the nearest Pebble has).
// Pebble has none, snappy, zstd and MinLZ. LZ4 and LZ4HC are fast LZ77 coders
// like MinLZ; zlib and bzip2 trade speed for ratio like zstd; xpress is
// closest to snappy.
func compressionProfile(name string) (*sstable.CompressionProfile, bool) {
	switch name {
	case "none", "no", "kNoCompression":
		return sstable.NoCompression, true
	case "snappy", "kSnappyCompression":
		return sstable.SnappyCompression, true
	case "zstd", "kZSTD", "zstdnotfinal", "kZSTDNotFinalCompression":
		return sstable.ZstdCompression, true
	case "lz4", "lz4hc", "kLZ4Compression", "kLZ4HCCompression":
		return sstable.MinLZCompression, false
	case "zlib", "bzip2", "kZlibCompression", "kBZip2Compression":
		return sstable.ZstdCompression, false
	}
	return sstable.SnappyCompression, false
}
