package options

// This file is the one table of engine options. Each Spec says which field
// of Options an option sets, the db_bench flag that sets it, and the
// OPTIONS-file statement that sets it. The driver's flag-to-option mapping
// (ApplyFlag), the OPTIONS-file setters (ApplyStrict) and the names engines
// warn under (Explicit) all come from it; nothing else lists options.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Spec is one engine option.
type Spec struct {
	// Flag is the db_bench flag that sets the option, "" when none does.
	Flag string
	// File is the option's name in an OPTIONS file, "" when a file cannot
	// set it. A field of a struct-valued option is "struct.field", as in
	// "compression_opts.level".
	File string
	// Section is the OPTIONS-file section File belongs to: SectionDB,
	// SectionCF or tableSection.
	Section string

	// Extra, for an option with no field in Options, is its key in
	// Options.Extra, where the engines that set RocksDB options by name
	// (the rocksdb engine) find it: RocksDB's option name, "struct.field"
	// for a field of a struct-valued option, and
	// "block_based_table_factory.NAME" for a block-based table option.
	// Other engines ignore such options, with a warning.
	Extra string

	set     optionSetter // parses File's value text
	setFlag optionSetter // parses the flag's value text; nil means set
}

// Key is the option's name in Explicit and in engines' warnings: its
// db_bench flag, or its OPTIONS-file name when no flag sets it.
func (s *Spec) Key() string {
	if s.Flag != "" {
		return s.Flag
	}
	return s.File
}

// tableSection is the section of the block-based table's options.
const tableSection = SectionTablePrefix + "BlockBasedTable"

// Specs lists every option: those with a field in Options, then those set
// by name (byname.go). Order matters where one option's flag reads
// another's value: num_levels comes before
// max_bytes_for_level_multiplier_additional, statistics before
// statistics_string, bloom_bits before use_ribbon_filter.
var Specs = slices.Concat(fieldSpecs, rocksDBFeatureSpecs, byNameSpecs)

// fieldSpecs are the options with a field in Options.
var fieldSpecs = []Spec{
	// Memtables.
	cfOpt("write_buffer_size", setInt64(func(o *Options) *int64 { return &o.WriteBufferSize })),
	cfOpt("max_write_buffer_number", setInt(func(o *Options) *int { return &o.MaxWriteBufferNumber })),
	cfOpt("min_write_buffer_number_to_merge", setInt(func(o *Options) *int { return &o.MinWriteBufferNumberToMerge })),
	dbOpt("db_write_buffer_size", setInt64(func(o *Options) *int64 { return &o.DBWriteBufferSize })),
	cfOpt("arena_block_size", setInt64(func(o *Options) *int64 { return &o.ArenaBlockSize })),
	dbOpt("allow_concurrent_memtable_write", setBool(func(o *Options) *bool { return &o.AllowConcurrentMemtableWrite })),
	dbOpt("enable_pipelined_write", setBool(func(o *Options) *bool { return &o.EnablePipelinedWrite })),
	cfOpt("memtable_factory", setMemtableFactory).
		flag("memtablerep", setString(func(o *Options) *string { return &o.Memtablerep })),
	flagOpt("skip_list_lookahead", setInt(func(o *Options) *int { return &o.SkipListLookahead })),
	cfOpt("memtable_prefix_bloom_size_ratio", setFloat(func(o *Options) *float64 { return &o.MemtableBloomSizeRatio })).
		flag("memtable_bloom_size_ratio", nil),

	// LSM shape and compaction.
	cfOpt("num_levels", setInt(func(o *Options) *int { return &o.NumLevels })),
	cfOpt("level0_file_num_compaction_trigger", setInt(func(o *Options) *int { return &o.Level0FileNumCompactionTrigger })),
	cfOpt("level0_slowdown_writes_trigger", setInt(func(o *Options) *int { return &o.Level0SlowdownWritesTrigger })),
	cfOpt("level0_stop_writes_trigger", setInt(func(o *Options) *int { return &o.Level0StopWritesTrigger })),
	cfOpt("target_file_size_base", setInt64(func(o *Options) *int64 { return &o.TargetFileSizeBase })),
	cfOpt("target_file_size_multiplier", setInt(func(o *Options) *int { return &o.TargetFileSizeMultiplier })),
	cfOpt("max_bytes_for_level_base", setUint64(func(o *Options) *uint64 { return &o.MaxBytesForLevelBase })),
	cfOpt("max_bytes_for_level_multiplier", setFloat(func(o *Options) *float64 { return &o.MaxBytesForLevelMultiplier })),
	cfOpt("max_bytes_for_level_multiplier_additional", setMultiplierAdditional).
		flag("max_bytes_for_level_multiplier_additional", setMultiplierAdditionalFlag),
	cfOpt("level_compaction_dynamic_level_bytes", setBool(func(o *Options) *bool { return &o.LevelCompactionDynamicLevelBytes })),
	cfOpt("compaction_style", setEnum(compactionStyles, func(o *Options) *int { return &o.CompactionStyle })).
		flag("compaction_style", setInt(func(o *Options) *int { return &o.CompactionStyle })),
	cfOpt("compaction_pri", setEnum(compactionPris, func(o *Options) *int { return &o.CompactionPri })).
		flag("compaction_pri", setInt(func(o *Options) *int { return &o.CompactionPri })),
	cfOpt("disable_auto_compactions", setBool(func(o *Options) *bool { return &o.DisableAutoCompactions })),
	cfOpt("max_compaction_bytes", setUint64(func(o *Options) *uint64 { return &o.MaxCompactionBytes })),
	cfOpt("soft_pending_compaction_bytes_limit", setUint64(func(o *Options) *uint64 { return &o.SoftPendingCompactionBytesLimit })),
	cfOpt("hard_pending_compaction_bytes_limit", setUint64(func(o *Options) *uint64 { return &o.HardPendingCompactionBytesLimit })),
	dbOpt("delayed_write_rate", setUint64(func(o *Options) *uint64 { return &o.DelayedWriteRate })),
	dbOpt("max_background_jobs", setInt(func(o *Options) *int { return &o.MaxBackgroundJobs })),
	dbOpt("max_background_compactions", setInt(func(o *Options) *int { return &o.MaxBackgroundCompactions })),
	dbOpt("max_background_flushes", setInt(func(o *Options) *int { return &o.MaxBackgroundFlushes })),
	dbOpt("max_subcompactions", setUint64(func(o *Options) *uint64 { return &o.Subcompactions })).
		flag("subcompactions", nil),

	// Compression.
	cfOpt("compression", setCompression).
		flag("compression_type", setParsed(func(v string) (string, error) { return strings.ToLower(v), nil },
			func(o *Options) *string { return &o.CompressionType })),
	cfOpt("compression_opts.level", setInt(func(o *Options) *int { return &o.CompressionLevel })).
		flag("compression_level", nil),
	flagOpt("min_level_to_compress", setInt(func(o *Options) *int { return &o.MinLevelToCompress })),
	cfOpt("compression_per_level", setCompressionPerLevel).noFlag(),
	cfOpt("compression_opts.max_dict_bytes", setInt(func(o *Options) *int { return &o.CompressionMaxDictBytes })).
		flag("compression_max_dict_bytes", nil),

	// Block-based table and caches.
	tableOpt("no_block_cache", setNoBlockCache).
		flag("cache_size", setInt64(func(o *Options) *int64 { return &o.CacheSize })),
	flagOpt("cache_numshardbits", setInt(func(o *Options) *int { return &o.CacheNumShardBits })),
	flagOpt("cache_type", setString(func(o *Options) *string { return &o.CacheType })),
	tableOpt("cache_index_and_filter_blocks", setBool(func(o *Options) *bool { return &o.CacheIndexAndFilterBlocks })),
	tableOpt("pin_l0_filter_and_index_blocks_in_cache", setBool(func(o *Options) *bool { return &o.PinL0FilterAndIndexBlocksInCache })),
	tableOpt("block_size", setInt(func(o *Options) *int { return &o.BlockSize })),
	tableOpt("block_restart_interval", setInt(func(o *Options) *int { return &o.BlockRestartInterval })),
	tableOpt("index_block_restart_interval", setInt(func(o *Options) *int { return &o.IndexBlockRestartInterval })),
	tableOpt("filter_policy", setFilterPolicy).
		flag("bloom_bits", setInt(func(o *Options) *int { return &o.BloomBits })),
	tableOpt("whole_key_filtering", setBool(func(o *Options) *bool { return &o.WholeKeyFiltering })),
	tableOpt("format_version", setInt(func(o *Options) *int { return &o.FormatVersion })),
	tableOpt("checksum", setEnum(checksumTypes, func(o *Options) *int { return &o.ChecksumType })).
		flag("checksum_type", setInt(func(o *Options) *int { return &o.ChecksumType })),
	dbOpt("max_open_files", setInt(func(o *Options) *int { return &o.OpenFiles })).
		flag("open_files", nil),
	dbOpt("table_cache_numshardbits", setInt(func(o *Options) *int { return &o.TableCacheNumShardBits })),
	cfOpt("optimize_filters_for_hits", setBool(func(o *Options) *bool { return &o.OptimizeFiltersForHits })),
	cfOpt("prefix_extractor", setPrefixExtractor).
		flag("prefix_size", setInt(func(o *Options) *int { return &o.PrefixSize })),
	cfOpt("merge_operator", setMergeOperatorFile).
		flag("merge_operator", setString(func(o *Options) *string { return &o.MergeOperator })),

	// I/O.
	dbOpt("use_direct_reads", setBool(func(o *Options) *bool { return &o.UseDirectReads })),
	dbOpt("use_direct_io_for_flush_and_compaction", setBool(func(o *Options) *bool { return &o.UseDirectIOForFlushAndCompaction })),
	cfOpt("table_factory", setTableFactory).
		flag("table_format", setTableFormat),
	dbOpt("allow_mmap_reads", setBool(func(o *Options) *bool { return &o.MmapRead })).
		flag("mmap_read", nil),
	dbOpt("allow_mmap_writes", setBool(func(o *Options) *bool { return &o.MmapWrite })).
		flag("mmap_write", nil),
	dbOpt("bytes_per_sync", setUint64(func(o *Options) *uint64 { return &o.BytesPerSync })),
	dbOpt("wal_bytes_per_sync", setUint64(func(o *Options) *uint64 { return &o.WALBytesPerSync })),
	dbOpt("use_fsync", setBool(func(o *Options) *bool { return &o.UseFsync })),
	dbOpt("compaction_readahead_size", setInt(func(o *Options) *int { return &o.CompactionReadaheadSize })),
	flagOpt("verify_checksum", setBool(func(o *Options) *bool { return &o.VerifyChecksum })),
	flagOpt("total_order_seek", setBool(func(o *Options) *bool { return &o.Read.TotalOrderSeek })),
	flagOpt("prefix_same_as_start", setBool(func(o *Options) *bool { return &o.Read.PrefixSameAsStart })),
	flagOpt("auto_prefix_mode", setBool(func(o *Options) *bool { return &o.Read.AutoPrefixMode })),
	flagOpt("readahead_size", setInt(func(o *Options) *int { return &o.Read.ReadaheadSize })),
	flagOpt("adaptive_readahead", setBool(func(o *Options) *bool { return &o.Read.AdaptiveReadahead })),
	flagOpt("async_io", setBool(func(o *Options) *bool { return &o.Read.AsyncIO })),
	flagOpt("optimize_multiget_for_io", setBool(func(o *Options) *bool { return &o.Read.OptimizeMultigetForIO })),
	flagOpt("multiread_batched", setBool(func(o *Options) *bool { return &o.Read.MultireadBatched })),
	flagOpt("rate_limit_user_ops", setBool(func(o *Options) *bool { return &o.Read.RateLimitUserOps })),
	flagOpt("rate_limit_auto_wal_flush", setBool(func(o *Options) *bool { return &o.Read.RateLimitAutoWALFlush })),
	dbOpt("wal_dir", setString(func(o *Options) *string { return &o.WALDir })),
	dbOpt("max_total_wal_size", setUint64(func(o *Options) *uint64 { return &o.MaxTotalWALSize })),
	flagOpt("disable_wal", setBool(func(o *Options) *bool { return &o.DisableWAL })),
	flagOpt("sync", setBool(func(o *Options) *bool { return &o.Sync })),
	dbOpt("paranoid_checks", setBool(func(o *Options) *bool { return &o.ParanoidChecks })),
	dbOpt("wal_recovery_mode", setEnum(walRecoveryModes, func(o *Options) *int { return &o.WALRecoveryMode })).
		flag("wal_recovery_mode", setInt(func(o *Options) *int { return &o.WALRecoveryMode })),
	dbOpt("advise_random_on_open", setBool(func(o *Options) *bool { return &o.AdviseRandomOnOpen })),
	flagOpt("readonly", setBool(func(o *Options) *bool { return &o.ReadOnly })),
	flagOpt("transaction_db", setBool(func(o *Options) *bool { return &o.TransactionDB })),
	flagOpt("optimistic_transaction_db", setBool(func(o *Options) *bool { return &o.OptimisticTransactionDB })),

	// Rate limiter and row cache.
	flagOpt("rate_limiter_bytes_per_sec", setUint64(func(o *Options) *uint64 { return &o.RateLimiterBytesPerSec })),
	flagOpt("rate_limiter_refill_period_us", setInt64(func(o *Options) *int64 { return &o.RateLimiterRefillPeriodUs })),
	flagOpt("rate_limiter_auto_tuned", setBool(func(o *Options) *bool { return &o.RateLimiterAutoTuned })),
	flagOpt("rate_limit_bg_reads", setBool(func(o *Options) *bool { return &o.RateLimitBgReads })),
	flagOpt("row_cache_size", setInt64(func(o *Options) *int64 { return &o.RowCacheSize })),

	// Statistics.
	flagOpt("statistics", setBool(func(o *Options) *bool { return &o.Statistics })),
	flagOpt("statistics_string", setStatisticsString),
	flagOpt("stats_level", setInt(func(o *Options) *int { return &o.StatsLevel })),
}

// ByNameKeys returns the keys of the options set by name only (Spec.Extra),
// which engines without RocksDB's option-string parser ignore.
func ByNameKeys() []string {
	var keys []string
	for i := range Specs {
		if Specs[i].Extra != "" {
			keys = append(keys, Specs[i].Key())
		}
	}
	return keys
}

// cfOpt is an option of a column family's section whose db_bench flag has
// the same name; dbOpt and tableOpt are the same for the DB options and the
// block-based table's options.
func cfOpt(name string, set optionSetter) Spec {
	return Spec{Flag: name, File: name, Section: SectionCF, set: set}
}

func dbOpt(name string, set optionSetter) Spec {
	return Spec{Flag: name, File: name, Section: SectionDB, set: set}
}

func tableOpt(name string, set optionSetter) Spec {
	return Spec{Flag: name, File: name, Section: tableSection, set: set}
}

// flagOpt is an option only a db_bench flag sets.
func flagOpt(name string, set optionSetter) Spec {
	return Spec{Flag: name, set: set}
}

// flag names the db_bench flag of s, and how its text parses when that
// differs from the file's spelling (nil: as the file's).
func (s Spec) flag(name string, set optionSetter) Spec {
	s.Flag = name
	s.setFlag = set
	return s
}

// noFlag marks an option no db_bench flag sets.
func (s Spec) noFlag() Spec {
	s.Flag = ""
	return s
}

// specByFlag and specByFile index Specs: by db_bench flag, and by section
// then OPTIONS-file name ("struct.field" for struct fields);
// structOptionNames holds the struct-valued options some spec has a field
// of ("compression_opts").
var specByFlag, specByFile, structOptionNames = indexSpecs()

func indexSpecs() (map[string]*Spec, map[string]map[string]*Spec, map[string]bool) {
	byFlag := map[string]*Spec{}
	byFile := map[string]map[string]*Spec{}
	structs := map[string]bool{}
	for i := range Specs {
		s := &Specs[i]
		if s.Flag != "" {
			byFlag[s.Flag] = s
		}
		if s.File != "" {
			if byFile[s.Section] == nil {
				byFile[s.Section] = map[string]*Spec{}
			}
			byFile[s.Section][s.File] = s
			if name, _, isField := strings.Cut(s.File, "."); isField {
				structs[name] = true
			}
		}
	}
	return byFlag, byFile, structs
}

// Lookup returns the option whose Key is key, or nil.
func Lookup(key string) *Spec {
	if s := specByFlag[key]; s != nil {
		return s
	}
	for i := range Specs {
		if Specs[i].Flag == "" && Specs[i].File == key {
			return &Specs[i]
		}
	}
	return nil
}

// FlagSpec returns the option a db_bench flag sets, or nil for a flag that
// sets no engine option.
func FlagSpec(flag string) *Spec { return specByFlag[flag] }

// ApplyFlag sets the option of a db_bench flag from the flag's value text
// (gflags' spelling: true/false, decimal integers, C's %.17g doubles);
// explicit marks it in o.Explicit, under the spec's Key. The flag must be
// one FlagSpec knows.
func ApplyFlag(o *Options, flag, value string, explicit bool) error {
	s := specByFlag[flag]
	if s == nil {
		return fmt.Errorf("--%s sets no engine option", flag)
	}
	set := s.setFlag
	if set == nil {
		set = s.set
	}
	if s.Extra != "" && !explicit {
		// Left to the engine's default, which is db_bench's.
		return nil
	}
	if _, err := set(o, value); err != nil {
		return err
	}
	if explicit {
		o.Explicit[s.Key()] = true
	}
	return nil
}

// setMultiplierAdditionalFlag parses db_bench's comma list. A list whose
// length is not --num_levels is dropped here; the open reports it, as
// db_bench's does.
func setMultiplierAdditionalFlag(o *Options, v string) (bool, error) {
	o.MaxBytesForLevelMultiplierAdditional = nil
	if v == "" {
		return false, nil
	}
	parts := strings.Split(v, ",")
	fan := make([]int, 0, len(parts))
	for _, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return false, fmt.Errorf("bad --max_bytes_for_level_multiplier_additional item '%s'", p)
		}
		fan = append(fan, n)
	}
	if len(fan) == o.NumLevels {
		o.MaxBytesForLevelMultiplierAdditional = fan
	}
	return true, nil
}

// setStatisticsString: db_bench makes statistics from a non-empty
// --statistics_string as it does for --statistics.
func setStatisticsString(o *Options, v string) (bool, error) {
	if v == "" {
		return false, nil
	}
	changed := !o.Statistics
	o.Statistics = true
	return changed, nil
}
