// Package options holds engine-neutral database options named after RocksDB's
// options, with db_bench 7.8.3's defaults, and (in optionsfile.go) a reader for
// RocksDB OPTIONS files.
//
// Contract: the driver fills an Options from its flags (or an OPTIONS file) and
// hands it to an engine. Explicit records which option names the user set on
// the command line or in a file; an engine that cannot honour an explicitly set
// option reports it through Warn, once, so nothing is silently ignored.
package options

import (
	"fmt"
	"io"
	"sort"
)

// Options are the knobs every engine maps as far as it can. Field comments give
// the RocksDB option (and db_bench flag) name.
type Options struct {
	// Memtables.
	WriteBufferSize              int64  // write_buffer_size
	MaxWriteBufferNumber         int    // max_write_buffer_number
	MinWriteBufferNumberToMerge  int    // min_write_buffer_number_to_merge
	DBWriteBufferSize            int64  // db_write_buffer_size
	ArenaBlockSize               int64  // arena_block_size
	AllowConcurrentMemtableWrite bool   // allow_concurrent_memtable_write
	EnablePipelinedWrite         bool   // enable_pipelined_write
	Memtablerep                  string // memtablerep (db_bench name, e.g. "skip_list", "cspp")
	SkipListLookahead            int    // skip_list_lookahead
	MemtableBloomSizeRatio       float64

	// LSM shape and compaction.
	NumLevels                            int     // num_levels
	Level0FileNumCompactionTrigger       int     // level0_file_num_compaction_trigger
	Level0SlowdownWritesTrigger          int     // level0_slowdown_writes_trigger
	Level0StopWritesTrigger              int     // level0_stop_writes_trigger
	TargetFileSizeBase                   int64   // target_file_size_base
	TargetFileSizeMultiplier             int     // target_file_size_multiplier
	MaxBytesForLevelBase                 uint64  // max_bytes_for_level_base
	MaxBytesForLevelMultiplier           float64 // max_bytes_for_level_multiplier
	MaxBytesForLevelMultiplierAdditional []int   // max_bytes_for_level_multiplier_additional
	LevelCompactionDynamicLevelBytes     bool
	CompactionStyle                      int // 0 level, 1 universal, 2 fifo
	CompactionPri                        int
	DisableAutoCompactions               bool
	MaxCompactionBytes                   uint64
	SoftPendingCompactionBytesLimit      uint64
	HardPendingCompactionBytesLimit      uint64
	DelayedWriteRate                     uint64
	MaxBackgroundJobs                    int
	MaxBackgroundCompactions             int
	MaxBackgroundFlushes                 int
	Subcompactions                       uint64

	// Compression. Names are db_bench's flag spellings in lower case:
	// "none", "snappy", "zlib", "bzip2", "lz4", "lz4hc", "xpress", "zstd".
	CompressionType         string   // compression_type
	CompressionLevel        int      // compression_level (32767 = library default)
	MinLevelToCompress      int      // min_level_to_compress (-1 = all levels)
	CompressionPerLevel     []string // compression_per_level (from an OPTIONS file); overrides the two above
	CompressionMaxDictBytes int

	// Block-based table and caches.
	CacheSize                        int64 // cache_size (<= 0: no block cache)
	CacheNumShardBits                int   // cache_numshardbits (-1: engine default)
	CacheType                        string
	CacheIndexAndFilterBlocks        bool
	PinL0FilterAndIndexBlocksInCache bool
	BlockSize                        int  // block_size
	BlockRestartInterval             int  // block_restart_interval
	IndexBlockRestartInterval        int  // index_block_restart_interval
	BloomBits                        int  // bloom_bits (<0 table default, 0 none, >0 bits per key)
	WholeKeyFiltering                bool // whole_key_filtering
	FormatVersion                    int  // format_version
	ChecksumType                     int  // checksum_type (db_bench default 4, kXXH3)
	OpenFiles                        int  // max_open_files
	TableCacheNumShardBits           int
	OptimizeFiltersForHits           bool
	PrefixSize                       int // prefix_size (fixed prefix extractor when > 0)
	// TableFormat is the native engine's format for new tables: "block"
	// (sst's block format, the default; "" means it too) or "rtable"
	// (rtable's read-optimized format, for the levels below L0). Existing
	// tables are read in whatever format they have. godbbench's
	// --table_format; other engines accept only "block".
	TableFormat string

	// MergeOperator names the merge operator (db_bench --merge_operator,
	// an OPTIONS file's merge_operator; "" none) as mergeop.Lookup and
	// RocksDB's MergeOperator::CreateFromString read it: "uint64add",
	// "UInt64AddOperator", "{id=StringAppendOperator;delimiter=,;}".
	MergeOperator string

	// I/O.
	UseDirectReads                   bool
	UseDirectIOForFlushAndCompaction bool
	MmapRead                         bool
	MmapWrite                        bool
	BytesPerSync                     uint64
	WALBytesPerSync                  uint64
	UseFsync                         bool
	CompactionReadaheadSize          int
	VerifyChecksum                   bool
	// Read is db_bench's read options, which set RocksDB's ReadOptions
	// (and rate_limit_auto_wal_flush its WriteOptions): no OPTIONS-file
	// statement sets them.
	Read            ReadOptions
	WALDir          string
	MaxTotalWALSize uint64
	// DisableWAL mirrors db_bench --disable_wal for engines where the WAL is a
	// database-level switch (Pebble); per-write engines use WriteOptions.
	DisableWAL bool
	// Sync mirrors db_bench --sync (every write synchronous).
	Sync           bool
	ParanoidChecks bool
	// WALRecoveryMode is RocksDB's wal_recovery_mode: what damage in a WAL
	// means at open (WALTolerateCorruptedTailRecords,
	// WALAbsoluteConsistency, WALPointInTimeRecovery, the default, or
	// WALSkipAnyCorruptedRecords).
	WALRecoveryMode    int
	AdviseRandomOnOpen bool
	// ReadOnly opens an existing database read-only (--readonly): the open
	// fails when there is no database and writes no file, and every write
	// fails with engine.ErrReadOnly's words.
	ReadOnly bool // --readonly
	// TransactionDB opens a pessimistic transaction database (RocksDB's
	// TransactionDB, --transaction_db) and OptimisticTransactionDB an
	// optimistic one (--optimistic_transaction_db, which wins when both
	// are set); see engine.TransactionDB.
	TransactionDB           bool
	OptimisticTransactionDB bool

	// Background I/O rate limit and the row cache.
	RateLimiterBytesPerSec    uint64 // rate_limiter_bytes_per_sec (0: no rate limiter)
	RateLimiterRefillPeriodUs int64  // rate_limiter_refill_period_us
	RateLimiterAutoTuned      bool   // rate_limiter_auto_tuned
	RateLimitBgReads          bool   // rate_limit_bg_reads: limit reads instead of writes
	RowCacheSize              int64  // row_cache_size (0: no row cache)

	// Statistics.
	Statistics bool // statistics
	StatsLevel int

	// RocksDBFeatures are the options of RocksDB features the other
	// engines refuse (rocksdbfeatures.go).
	RocksDBFeatures

	// Extra holds option name -> value pairs from an OPTIONS file that have no
	// field above, for engines (RocksDB) that can apply them by name.
	Extra map[string]string
	// OptionsFile is the path given with --options_file, if any.
	OptionsFile string

	// Explicit names the options the user set (flag or file), by RocksDB name.
	Explicit map[string]bool
}

// Default returns db_bench 7.8.3's defaults.
func Default() *Options {
	return &Options{
		WriteBufferSize:                 67108864,
		MaxWriteBufferNumber:            2,
		MinWriteBufferNumberToMerge:     1,
		AllowConcurrentMemtableWrite:    true,
		EnablePipelinedWrite:            true,
		Memtablerep:                     "skip_list",
		NumLevels:                       7,
		Level0FileNumCompactionTrigger:  4,
		Level0SlowdownWritesTrigger:     20,
		Level0StopWritesTrigger:         36,
		TargetFileSizeBase:              67108864,
		TargetFileSizeMultiplier:        1,
		MaxBytesForLevelBase:            268435456,
		MaxBytesForLevelMultiplier:      10,
		CompactionPri:                   3,
		SoftPendingCompactionBytesLimit: 68719476736,
		HardPendingCompactionBytesLimit: 137438953472,
		DelayedWriteRate:                8388608,
		MaxBackgroundJobs:               2,
		MaxBackgroundCompactions:        -1,
		MaxBackgroundFlushes:            -1,
		Subcompactions:                  1,
		CompressionType:                 "snappy",
		CompressionLevel:                32767,
		MinLevelToCompress:              -1,
		CacheSize:                       8388608,
		CacheNumShardBits:               -1,
		CacheType:                       "lru_cache",
		BlockSize:                       4096,
		BlockRestartInterval:            16,
		TableFormat:                     TableFormatBlock,
		IndexBlockRestartInterval:       1,
		BloomBits:                       -1,
		WholeKeyFiltering:               true,
		FormatVersion:                   5,
		ChecksumType:                    4,
		OpenFiles:                       -1,
		TableCacheNumShardBits:          4,
		VerifyChecksum:                  true,
		Read:                            ReadOptions{OptimizeMultigetForIO: true},
		ParanoidChecks:                  true,
		WALRecoveryMode:                 WALPointInTimeRecovery,
		AdviseRandomOnOpen:              true,
		StatsLevel:                      3,
		RateLimiterRefillPeriodUs:       100000,
		RocksDBFeatures:                 defaultRocksDBFeatures(),
		Extra:                           map[string]string{},
		Explicit:                        map[string]bool{},
	}
}

// LevelCompression returns the compression name for level (0-based), applying
// CompressionPerLevel when set, else min_level_to_compress as db_bench does:
// levels below it are uncompressed, the rest use CompressionType.
func (o *Options) LevelCompression(level int) string {
	if n := len(o.CompressionPerLevel); n > 0 {
		if level >= n {
			level = n - 1
		}
		return o.CompressionPerLevel[level]
	}
	if o.MinLevelToCompress >= 0 && level < o.MinLevelToCompress {
		return "none"
	}
	return o.CompressionType
}

// Small returns the defaults with memtables and tables small enough that a
// few thousand writes flush, fill several levels and compact: 64 KiB write
// buffers and target files, a 256 KiB level base, an L0 trigger of 2, no
// compression and 10 bloom bits. Engine tests open with it.
func Small() *Options {
	o := Default()
	o.WriteBufferSize = 64 << 10
	o.TargetFileSizeBase = 64 << 10
	o.MaxBytesForLevelBase = 256 << 10
	o.Level0FileNumCompactionTrigger = 2
	o.CompressionType = "none"
	o.BloomBits = 10
	return o
}

// CompressionChosen reports whether the command line chose the
// compression (--compression_type or --compression_per_level): an engine
// that substitutes a codec it lacks says so only then, and only at the
// first open of the process (the driver clears Explicit after it).
func (o *Options) CompressionChosen() bool {
	return o.Explicit["compression_type"] || o.Explicit["compression_per_level"]
}

// Warn writes one warning line per explicitly set option in names that the
// engine cannot honour, in sorted order, e.g.
// "WARNING: engine pebble ignores option use_direct_reads".
func (o *Options) Warn(w io.Writer, engine string, names ...string) {
	var set []string
	for _, n := range names {
		if o.Explicit[n] {
			set = append(set, n)
		}
	}
	sort.Strings(set)
	for _, n := range set {
		fmt.Fprintf(w, "WARNING: engine %s ignores option %s\n", engine, n)
	}
}

// RocksDB's WALRecoveryMode values (wal_recovery_mode).
const (
	// WALTolerateCorruptedTailRecords ignores a torn last record; other
	// damage fails the open.
	WALTolerateCorruptedTailRecords = 0
	// WALAbsoluteConsistency fails the open on any damage, a torn tail too.
	WALAbsoluteConsistency = 1
	// WALPointInTimeRecovery recovers up to the first damage; it fails
	// when records follow the damage.
	WALPointInTimeRecovery = 2
	// WALSkipAnyCorruptedRecords skips damaged records and recovers the rest.
	WALSkipAnyCorruptedRecords = 3
)
