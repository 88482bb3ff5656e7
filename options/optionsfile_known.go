package options

// This file lists every option name RocksDB 7.8.3 accepts in the sections of
// an OPTIONS file that db_bench loads, with the kind of value each takes, and
// checks a value against its kind in RocksDB's own words. A name not listed
// is an error ("Could not find option: : NAME"), as it is for RocksDB.
//
// The lists were taken from what RocksDB 7.8.3 writes into an OPTIONS file
// (every option it serializes), plus the deprecated and alias names its
// loaders still accept; the kind of each name is what RocksDB's parser
// reports for a value that does not parse ("Error parsing NAME:stoi" for an
// int, ":stoull" for an unsigned 64-bit value, and so on).
//
// Where RocksDB is more lenient than this check, the check wins: RocksDB
// reads "2x" as 2 and "-5" as 2^64-5 for an unsigned option; here both are
// the same "Error parsing" error RocksDB gives for "abc".

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// valueKind is the syntax an option's value must have.
type valueKind uint8

const (
	kindAny             valueKind = iota // any text (strings, objects, deprecated options)
	kindInt                              // 32-bit signed integer, k/m/g/t suffix allowed
	kindInt64                            // 64-bit signed integer
	kindUint64                           // 64-bit unsigned integer
	kindDouble                           // floating point
	kindBool                             // true, false, 1 or 0
	kindEnum                             // one of the option's enum names; "Error parsing:: NAME"
	kindEnumMap                          // one of the option's enum names; "No mapping for enum : NAME"
	kindCompressionList                  // ':'-separated compression names
	kindIntList                          // ':'-separated 32-bit integers
	kindStruct                           // {field=value;...} with the fields of structFields[name]
)

// kindWords are the words RocksDB's parser puts after "Error parsing NAME:"
// for a value of the kind that does not parse (the C++ function that threw).
var kindWords = map[valueKind]string{
	kindInt: "stoi", kindInt64: "stoll", kindUint64: "stoull", kindDouble: "stod", kindIntList: "stoi",
}

// namesOf builds a name -> kind table from pairs of kind and a
// space-separated list of names.
func namesOf(groups ...any) map[string]valueKind {
	m := map[string]valueKind{}
	for i := 0; i < len(groups); i += 2 {
		k := groups[i].(valueKind)
		for _, n := range strings.Fields(groups[i+1].(string)) {
			m[n] = k
		}
	}
	return m
}

// knownDBOptions are the [DBOptions] names.
var knownDBOptions = namesOf(
	kindInt, "max_background_compactions max_background_flushes max_background_jobs max_bgerror_resume_count "+
		"max_file_opening_threads max_open_files table_cache_numshardbits",
	kindUint64, "WAL_size_limit_MB WAL_ttl_seconds bgerror_resume_retry_interval bytes_per_sync "+
		"compaction_readahead_size db_write_buffer_size delayed_write_rate delete_obsolete_files_period_micros "+
		"keep_log_file_num log_file_time_to_roll log_readahead_size manifest_preallocation_size "+
		"max_log_file_size max_manifest_file_size max_subcompactions max_total_wal_size "+
		"max_write_batch_group_size_bytes random_access_max_buffer_size rate_limiter_bytes_per_sec "+
		"recycle_log_file_num stats_dump_period_sec stats_history_buffer_size stats_persist_period_sec "+
		"wal_bytes_per_sync writable_file_max_buffer_size write_thread_max_yield_usec write_thread_slow_yield_usec",
	kindBool, "advise_random_on_open allow_2pc allow_concurrent_memtable_write allow_data_in_errors "+
		"allow_fallocate allow_ingest_behind allow_mmap_reads allow_mmap_writes atomic_flush "+
		"avoid_flush_during_recovery avoid_flush_during_shutdown avoid_unnecessary_blocking_io "+
		"best_efforts_recovery create_if_missing create_missing_column_families dump_malloc_stats "+
		"enable_pipelined_write enable_thread_tracking enable_write_thread_adaptive_yield "+
		"enforce_single_del_contracts error_if_exists fail_if_options_file_error flush_verify_memtable_count "+
		"is_fd_close_on_exec manual_wal_flush paranoid_checks persist_stats_to_disk "+
		"skip_checking_sst_file_sizes_on_db_open skip_stats_update_on_db_open strict_bytes_per_sync "+
		"track_and_verify_wals_in_manifest two_write_queues unordered_write use_adaptive_mutex "+
		"use_direct_io_for_flush_and_compaction use_direct_reads use_fsync verify_sst_unique_id_in_manifest "+
		"write_dbid_to_manifest",
	kindEnum, "wal_compression",
	kindEnumMap, "access_hint_on_compaction_start info_log_level lowest_used_cache_tier wal_recovery_mode",
	kindAny, "db_host_id db_log_dir env file_checksum_gen_factory listeners rate_limiter statistics wal_dir wal_filter "+
		// deprecated: accepted and ignored by RocksDB
		"allow_os_buffer base_background_compactions concurrent_prepare disableDataSync disable_data_sync "+
		"experimental_allow_mempurge experimental_mempurge_policy new_table_reader_for_compaction_inputs "+
		"preserve_deletes seq_per_batch skip_log_error_on_recovery use_direct_writes",
)

// knownCFOptions are the [CFOptions "..."] names.
var knownCFOptions = namesOf(
	kindInt, "blob_file_starting_level level0_file_num_compaction_trigger level0_slowdown_writes_trigger "+
		"level0_stop_writes_trigger max_write_buffer_number max_write_buffer_number_to_maintain "+
		"min_write_buffer_number_to_merge num_levels target_file_size_multiplier",
	kindInt64, "max_write_buffer_size_to_maintain",
	kindUint64, "arena_block_size blob_cache blob_compaction_readahead_size blob_file_size bloom_locality "+
		"hard_pending_compaction_bytes_limit inplace_update_num_locks max_bytes_for_level_base "+
		"max_compaction_bytes max_sequential_skip_in_iterations max_successive_merges memtable_huge_page_size "+
		"memtable_protection_bytes_per_key min_blob_size periodic_compaction_seconds "+
		"preclude_last_level_data_seconds preserve_internal_time_seconds sample_for_compression "+
		"soft_pending_compaction_bytes_limit target_file_size_base ttl write_buffer_size",
	kindDouble, "blob_garbage_collection_age_cutoff blob_garbage_collection_force_threshold "+
		"experimental_mempurge_threshold max_bytes_for_level_multiplier memtable_prefix_bloom_size_ratio",
	kindBool, "check_flush_compaction_key_order disable_auto_compactions enable_blob_files "+
		"enable_blob_garbage_collection force_consistency_checks ignore_max_compaction_bytes_for_input "+
		"inplace_update_support level_compaction_dynamic_file_size level_compaction_dynamic_level_bytes "+
		"memtable_whole_key_filtering optimize_filters_for_hits paranoid_file_checks report_bg_io_stats",
	kindEnum, "blob_compression_type bottommost_compression compaction_pri compaction_style compression "+
		"last_level_temperature",
	kindEnumMap, "prepopulate_blob_cache",
	kindCompressionList, "compression_per_level",
	kindIntList, "max_bytes_for_level_multiplier_additional",
	kindStruct, "bottommost_compression_opts compaction_options_fifo compaction_options_universal compression_opts",
	kindAny, "compaction_filter compaction_filter_factory comparator memtable_factory "+
		"memtable_insert_with_hint_prefix_extractor merge_operator prefix_extractor sst_partitioner_factory "+
		"table_factory table_properties_collectors "+
		// aliases, and deprecated names accepted and ignored by RocksDB
		"block_based_table_factory memtable plain_table_factory "+
		"bottommost_temperature compaction_measure_io_stats expanded_compaction_factor filter_deletes "+
		"hard_rate_limit max_grandparent_overlap_factor max_mem_compaction_level memtable_prefix_bloom_bits "+
		"memtable_prefix_bloom_huge_page_tlb_size memtable_prefix_bloom_probes min_partial_merge_operands "+
		"purge_redundant_kvs_while_flush rate_limit_delay_max_milliseconds snap_refresh_nanos soft_rate_limit "+
		"source_compaction_factor verify_checksums_in_compaction",
)

// knownTableOptions are the [TableOptions/BlockBasedTable "..."] names.
var knownTableOptions = namesOf(
	kindInt, "block_restart_interval block_size_deviation index_block_restart_interval",
	kindUint64, "block_cache block_cache_compressed block_size format_version initial_auto_readahead_size "+
		"max_auto_readahead_size metadata_block_size num_file_reads_for_auto_readahead read_amp_bytes_per_bit",
	kindDouble, "data_block_hash_table_util_ratio",
	kindBool, "block_align cache_index_and_filter_blocks cache_index_and_filter_blocks_with_high_priority "+
		"detect_filter_construct_corruption enable_index_compression no_block_cache optimize_filters_for_memory "+
		"partition_filters pin_l0_filter_and_index_blocks_in_cache pin_top_level_index_and_filter "+
		"verify_compression whole_key_filtering",
	kindEnum, "checksum",
	kindEnumMap, "data_block_index_type index_shortening index_type prepopulate_block_cache",
	kindStruct, "metadata_cache_options",
	kindAny, "filter_policy flush_block_policy_factory "+
		// deprecated: accepted and ignored by RocksDB
		"hash_index_allow_collision index_per_partition reserve_table_builder_memory "+
		"reserve_table_reader_memory skip_table_builder_flush",
)

// knownPlainTableOptions are the [TableOptions/PlainTable "..."] names.
var knownPlainTableOptions = namesOf(
	kindInt, "bloom_bits_per_key",
	kindUint64, "user_key_len index_sparseness huge_page_tlb_size",
	kindDouble, "hash_table_ratio",
	kindBool, "full_scan_mode store_index_in_file",
	kindEnum, "encoding_type",
)

// knownCuckooTableOptions are the [TableOptions/CuckooTable "..."] names.
var knownCuckooTableOptions = namesOf(
	kindUint64, "max_search_depth cuckoo_block_size",
	kindDouble, "hash_table_ratio",
	kindBool, "identity_as_first_hash use_module_hash",
)

// setOfNames builds a set from a space-separated list.
func setOfNames(names string) map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(names) {
		m[n] = true
	}
	return m
}

// keysOf returns the set of a map's keys.
func keysOf[V any](m map[string]V) map[string]bool {
	set := make(map[string]bool, len(m))
	for k := range m {
		set[k] = true
	}
	return set
}

var (
	compressionEnum = keysOf(compressionNames)
	pinningTierEnum = setOfNames("kFallback kNone kFlushedAndSimilar kAll")
	prepopulateEnum = setOfNames("kDisable kFlushOnly")
)

// enumValues are the names each enum option accepts (RocksDB's string maps).
var enumValues = map[string]map[string]bool{
	"wal_compression":                 compressionEnum,
	"compression":                     compressionEnum,
	"bottommost_compression":          compressionEnum,
	"blob_compression_type":           compressionEnum,
	"compaction_style":                keysOf(compactionStyles),
	"compaction_pri":                  keysOf(compactionPris),
	"last_level_temperature":          setOfNames("kUnknown kHot kWarm kCold"),
	"checksum":                        keysOf(checksumTypes),
	"access_hint_on_compaction_start": setOfNames("NONE NORMAL SEQUENTIAL WILLNEED"),
	"info_log_level":                  setOfNames("DEBUG_LEVEL INFO_LEVEL WARN_LEVEL ERROR_LEVEL FATAL_LEVEL HEADER_LEVEL"),
	"lowest_used_cache_tier":          setOfNames("kVolatileTier kNonVolatileBlockTier"),
	"wal_recovery_mode":               keysOf(walRecoveryModes),
	"prepopulate_blob_cache":          prepopulateEnum,
	"prepopulate_block_cache":         prepopulateEnum,
	"data_block_index_type":           setOfNames("kDataBlockBinarySearch kDataBlockBinaryAndHash"),
	"index_shortening":                setOfNames("kNoShortening kShortenSeparators kShortenSeparatorsAndSuccessor"),
	"index_type":                      setOfNames("kBinarySearch kHashSearch kTwoLevelIndexSearch kBinarySearchWithFirstKey"),
	"stop_style":                      setOfNames("kCompactionStopStyleSimilarSize kCompactionStopStyleTotalSize"),
	"encoding_type":                   setOfNames("kPlain kPrefix"),
	"unpartitioned_pinning":           pinningTierEnum,
	"partition_pinning":               pinningTierEnum,
	"top_level_index_pinning":         pinningTierEnum,
}

// compressionOptsFields are the fields of compression_opts and
// bottommost_compression_opts.
var compressionOptsFields = namesOf(
	kindInt, "window_bits level strategy max_dict_bytes",
	kindUint64, "zstd_max_train_bytes parallel_threads max_dict_buffer_bytes",
	kindBool, "enabled use_zstd_dict_trainer",
)

// structSpec describes a struct-valued option: its fields, and how a value
// not in braces (RocksDB's older ':'-separated form) is read: its parts
// have kind legacy, or, with kindAny, such a value is an error.
type structSpec struct {
	fields map[string]valueKind
	legacy valueKind
}

var structFields = map[string]structSpec{
	"compression_opts":            {compressionOptsFields, kindInt},
	"bottommost_compression_opts": {compressionOptsFields, kindInt},
	"compaction_options_fifo": {namesOf(
		kindUint64, "max_table_files_size age_for_warm",
		kindBool, "allow_compaction"), kindUint64},
	"compaction_options_universal": {namesOf(
		kindInt, "compression_size_percent",
		kindUint64, "size_ratio min_merge_width max_merge_width max_size_amplification_percent",
		kindBool, "incremental allow_trivial_move",
		kindEnum, "stop_style"), kindAny},
	"metadata_cache_options": {namesOf(
		kindEnumMap, "unpartitioned_pinning partition_pinning top_level_index_pinning"), kindAny},
}

// checkValue checks value against the kind of option name; the error is
// the message RocksDB's "Invalid argument" status carries.
func checkValue(name string, kind valueKind, value string) error {
	bad := func() error {
		return fmt.Errorf("Error parsing %s:%s", name, kindWords[kind])
	}
	switch kind {
	case kindInt:
		if n, err := parseOptionInt(value); err != nil || n < math.MinInt32 || n > math.MaxInt32 {
			return bad()
		}
	case kindInt64:
		if _, err := parseOptionInt(value); err != nil {
			return bad()
		}
	case kindUint64:
		if _, err := parseOptionUint(value); err != nil {
			return bad()
		}
	case kindDouble:
		if _, err := strconv.ParseFloat(value, 64); err != nil {
			return bad()
		}
	case kindBool:
		if _, err := parseOptionBool(value); err != nil {
			return bad()
		}
	case kindEnum:
		if !enumValues[name][value] {
			return fmt.Errorf("Error parsing:: %s", name)
		}
	case kindEnumMap:
		if !enumValues[name][value] {
			return fmt.Errorf("No mapping for enum : %s", name)
		}
	case kindCompressionList:
		for _, c := range splitList(value) {
			if !compressionEnum[c] {
				return fmt.Errorf("Error parsing:: %s", name)
			}
		}
	case kindIntList:
		for _, p := range splitList(value) {
			if err := checkValue(name, kindInt, p); err != nil {
				return err
			}
		}
	case kindStruct:
		return checkStruct(name, value)
	}
	return nil
}

// splitList splits a ':'-separated list; an empty value is an empty list.
func splitList(v string) []string {
	if v == "" {
		return nil
	}
	parts := strings.Split(v, ":")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// checkStruct checks a struct-valued option field by field.
func checkStruct(name, value string) error {
	spec := structFields[name]
	if value == "" {
		return fmt.Errorf("unable to parse the specified CF option %s", name)
	}
	if !strings.HasPrefix(value, "{") {
		if spec.legacy == kindAny {
			return fmt.Errorf("Mismatched key value pair, '=' expected")
		}
		for _, p := range splitList(value) {
			if checkValue(name, spec.legacy, p) != nil {
				return fmt.Errorf("Error parsing %s:%s", name, kindWords[spec.legacy])
			}
		}
		return nil
	}
	fields, err := parseStructValue(value)
	if err != nil {
		return err
	}
	for _, k := range sortedKeys(fields) {
		kind, ok := spec.fields[k]
		if !ok {
			return fmt.Errorf("Unrecognized option: %s.%s", name, k)
		}
		if err := checkValue(k, kind, fields[k]); err != nil {
			return err
		}
	}
	return nil
}
