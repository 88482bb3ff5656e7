package options

// This file lists the db_bench flags that set a RocksDB option this
// project's Options has no field for. C++ db_bench applies each of them
// (checked by the OPTIONS-file oracle test); the rocksdb engine sets them
// by name from Options.Extra, and the other engines, which have no such
// feature, warn that they ignore them. Each is applied only when its flag
// is set away from db_bench's default, which is RocksDB's.

import (
	"strconv"
	"strings"
)

// The struct-valued options and the table factory, as Extra prefixes.
const (
	universal   = "compaction_options_universal."
	fifo        = "compaction_options_fifo."
	compression = "compression_opts."
	table       = "block_based_table_factory."
)

var byNameSpecs = []Spec{
	// DB options.
	byName("allow_data_in_errors", "allow_data_in_errors", asIs),
	byName("avoid_flush_during_recovery", "avoid_flush_during_recovery", asIs),
	byName("dump_malloc_stats", "dump_malloc_stats", asIs),
	byName("enable_write_thread_adaptive_yield", "enable_write_thread_adaptive_yield", asIs),
	byName("file_opening_threads", "max_file_opening_threads", asIs),
	byName("log_readahead_size", "log_readahead_size", asIs),
	byName("manual_wal_flush", "manual_wal_flush", asIs),
	byName("random_access_max_buffer_size", "random_access_max_buffer_size", asIs),
	byName("report_bg_io_stats", "report_bg_io_stats", asIs),
	byName("persist_stats_to_disk", "persist_stats_to_disk", asIs),
	byName("stats_dump_period_sec", "stats_dump_period_sec", asIs),
	byName("stats_history_buffer_size", "stats_history_buffer_size", asIs),
	byName("stats_persist_period_sec", "stats_persist_period_sec", asIs),
	byName("track_and_verify_wals_in_manifest", "track_and_verify_wals_in_manifest", asIs),
	byName("use_adaptive_mutex", "use_adaptive_mutex", asIs),
	byName("wal_size_limit_MB", "WAL_size_limit_MB", asIs),
	byName("wal_ttl_seconds", "WAL_ttl_seconds", asIs),
	byName("writable_file_max_buffer_size", "writable_file_max_buffer_size", asIs),
	byName("write_thread_max_yield_usec", "write_thread_max_yield_usec", asIs),
	byName("write_thread_slow_yield_usec", "write_thread_slow_yield_usec", asIs),
	byName("thread_status_per_interval", "enable_thread_tracking", positive),
	byName("file_checksum", "file_checksum_gen_factory", ifTrue("FileChecksumGenCrc32cFactory", "nullptr")),
	byName("unordered_write", "unordered_write", asIs),
	byName("compaction_fadvice", "access_hint_on_compaction_start", upperCase),
	byName("wal_compression", "wal_compression", compressionName),

	// Column family options.
	byName("blob_compaction_readahead_size", "blob_compaction_readahead_size", asIs),
	byName("blob_compression_type", "blob_compression_type", compressionName),
	byName("blob_file_size", "blob_file_size", asIs),
	byName("blob_file_starting_level", "blob_file_starting_level", asIs),
	byName("blob_garbage_collection_age_cutoff", "blob_garbage_collection_age_cutoff", asIs),
	byName("blob_garbage_collection_force_threshold", "blob_garbage_collection_force_threshold", asIs),
	byName("bloom_locality", "bloom_locality", asIs),
	byName("check_flush_compaction_key_order", "check_flush_compaction_key_order", asIs),
	byName("enable_blob_files", "enable_blob_files", asIs),
	byName("enable_blob_garbage_collection", "enable_blob_garbage_collection", asIs),
	byName("experimental_mempurge_threshold", "experimental_mempurge_threshold", asIs),
	byName("force_consistency_checks", "force_consistency_checks", asIs),
	byName("inplace_update_num_locks", "inplace_update_num_locks", asIs),
	byName("inplace_update_support", "inplace_update_support", asIs),
	byName("memtable_protection_bytes_per_key", "memtable_protection_bytes_per_key", asIs),
	byName("max_successive_merges", "max_successive_merges", asIs),
	byName("max_write_buffer_number_to_maintain", "max_write_buffer_number_to_maintain", asIs),
	byName("max_write_buffer_size_to_maintain", "max_write_buffer_size_to_maintain", asIs),
	byName("memtable_whole_key_filtering", "memtable_whole_key_filtering", asIs),
	byName("memtable_use_huge_page", "memtable_huge_page_size", hugePageSize),
	byName("memtable_insert_with_hint_prefix_size", "memtable_insert_with_hint_prefix_extractor", cappedPrefix),
	byName("min_blob_size", "min_blob_size", asIs),
	byName("periodic_compaction_seconds", "periodic_compaction_seconds", asIs),
	byName("ttl_seconds", "ttl", asIs),
	byName("preclude_last_level_data_seconds", "preclude_last_level_data_seconds", asIs),
	byName("preserve_internal_time_seconds", "preserve_internal_time_seconds", asIs),

	// Fields of struct-valued options.
	byName("compression_max_dict_buffer_bytes", compression+"max_dict_buffer_bytes", asIs),
	byName("compression_parallel_threads", compression+"parallel_threads", asIs),
	byName("compression_use_zstd_dict_trainer", compression+"use_zstd_dict_trainer", asIs),
	byName("compression_zstd_max_train_bytes", compression+"zstd_max_train_bytes", asIs),
	byName("universal_size_ratio", universal+"size_ratio", asIs),
	byName("universal_min_merge_width", universal+"min_merge_width", asIs),
	byName("universal_max_merge_width", universal+"max_merge_width", asIs),
	byName("universal_max_size_amplification_percent", universal+"max_size_amplification_percent", asIs),
	byName("universal_compression_size_percent", universal+"compression_size_percent", asIs),
	byName("universal_allow_trivial_move", universal+"allow_trivial_move", asIs),
	byName("universal_incremental", universal+"incremental", asIs),
	byName("fifo_age_for_warm", fifo+"age_for_warm", asIs),
	byName("fifo_compaction_allow_compaction", fifo+"allow_compaction", asIs),
	byName("fifo_compaction_max_table_files_size_mb", fifo+"max_table_files_size", mebibytes),

	// Block-based table options. Later flags win where two set one option,
	// as in db_bench: --partition_index over --index_with_first_key over
	// --use_hash_search; each index flag set to false leaves the index
	// type to the others.
	byName("block_align", table+"block_align", asIs),
	{Flag: "use_hash_search", Extra: table + "index_type", set: setIndexTypeIfTrue("kHashSearch")},
	{Flag: "index_with_first_key", Extra: table + "index_type", set: setIndexTypeIfTrue("kBinarySearchWithFirstKey")},
	{Flag: "partition_index", Extra: table + "index_type", set: setIndexTypeIfTrue("kTwoLevelIndexSearch")},
	{Flag: "partition_index_and_filters", Extra: table + "index_type", set: setPartitionIndexAndFilters},
	{Flag: "use_ribbon_filter", Extra: table + "filter_policy", set: setRibbonFilter},
	{Flag: "metadata_block_size", Extra: table + "metadata_block_size", set: setMetadataBlockSize},
	byName("data_block_hash_table_util_ratio", table+"data_block_hash_table_util_ratio", asIs),
	byName("enable_index_compression", table+"enable_index_compression", asIs),
	byName("index_shortening_mode", table+"index_shortening", indexShortening),
	byName("initial_auto_readahead_size", table+"initial_auto_readahead_size", asIs),
	byName("max_auto_readahead_size", table+"max_auto_readahead_size", asIs),
	byName("num_file_reads_for_auto_readahead", table+"num_file_reads_for_auto_readahead", asIs),
	byName("optimize_filters_for_memory", table+"optimize_filters_for_memory", asIs),
	byName("prepopulate_block_cache", table+"prepopulate_block_cache", prepopulateBlockCache),
	byName("pin_top_level_index_and_filter", table+"pin_top_level_index_and_filter", asIs),
	byName("read_amp_bytes_per_bit", table+"read_amp_bytes_per_bit", asIs),
	byName("use_data_block_hash_index", table+"data_block_index_type", dataBlockIndexType),
}

// byName is a flag that sets option extra (Spec.Extra) by name, its value
// text turned into RocksDB's spelling by conv.
func byName(flag, extra string, conv func(string) (string, error)) Spec {
	return Spec{Flag: flag, Extra: extra, set: func(o *Options, v string) (bool, error) {
		text, err := conv(v)
		if err != nil {
			return false, err
		}
		ensureExtra(o)
		old, had := o.Extra[extra]
		o.Extra[extra] = text
		return !had || old != text, nil
	}}
}

// setIndexTypeIfTrue returns the setter of a boolean flag that, when true,
// makes the block-based table's index of type index.
func setIndexTypeIfTrue(index string) optionSetter {
	return func(o *Options, v string) (bool, error) {
		on, err := strconv.ParseBool(v)
		if err != nil || !on {
			return false, err
		}
		ensureExtra(o)
		changed := o.Extra[table+"index_type"] != index
		o.Extra[table+"index_type"] = index
		return changed, nil
	}
}

// setPartitionIndexAndFilters: --partition_index_and_filters partitions
// both the index and the filters.
func setPartitionIndexAndFilters(o *Options, v string) (bool, error) {
	on, err := strconv.ParseBool(v)
	if err != nil || !on {
		return false, err
	}
	ensureExtra(o)
	o.Extra[table+"index_type"] = "kTwoLevelIndexSearch"
	o.Extra[table+"partition_filters"] = "true"
	return true, nil
}

// setRibbonFilter: --use_ribbon_filter builds a Ribbon filter of
// --bloom_bits bits per key instead of a Bloom filter; without bits there
// is no filter either way. It reads BloomBits, which Specs sets first.
func setRibbonFilter(o *Options, v string) (bool, error) {
	on, err := strconv.ParseBool(v)
	if err != nil || !on || o.BloomBits <= 0 {
		return false, err
	}
	ensureExtra(o)
	o.Extra[table+"filter_policy"] = "ribbonfilter:" + strconv.Itoa(o.BloomBits)
	return true, nil
}

func ensureExtra(o *Options) {
	if o.Extra == nil {
		o.Extra = map[string]string{}
	}
}

// setMetadataBlockSize: db_bench sets the partition size only for a
// partitioned index (the partition flags come first in Specs).
func setMetadataBlockSize(o *Options, v string) (bool, error) {
	if o.Extra[table+"index_type"] != "kTwoLevelIndexSearch" {
		return false, nil
	}
	o.Extra[table+"metadata_block_size"] = v
	return true, nil
}

// asIs: the flag's text is RocksDB's (booleans, integers, doubles).
func asIs(v string) (string, error) { return v, nil }

// compressionName: a db_bench compression name in RocksDB's spelling. A
// name no codec has is passed on as it is: the driver refuses it first,
// with db_bench's words, where db_bench checks it.
func compressionName(v string) (string, error) {
	if c, err := CompressionToRocksDB(v); err == nil {
		return c, nil
	}
	return v, nil
}

// upperCase: RocksDB spells the enum in capitals.
func upperCase(v string) (string, error) { return strings.ToUpper(v), nil }

// ifTrue maps a boolean flag onto two enum names.
func ifTrue(on, off string) func(string) (string, error) {
	return func(v string) (string, error) {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return "", err
		}
		if b {
			return on, nil
		}
		return off, nil
	}
}

// positive: a count above zero turns the option on.
func positive(v string) (string, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return "", err
	}
	return strconv.FormatBool(n > 0), nil
}

// hugePageSize: db_bench uses 2048-byte huge pages for the memtable when
// --memtable_use_huge_page is on.
func hugePageSize(v string) (string, error) {
	on, err := strconv.ParseBool(v)
	if err != nil {
		return "", err
	}
	if on {
		return "2048", nil
	}
	return "0", nil
}

// cappedPrefix: a positive length makes a capped prefix extractor.
func cappedPrefix(v string) (string, error) {
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return "", err
	}
	if n <= 0 {
		return "nullptr", nil
	}
	return "rocksdb.CappedPrefix." + strconv.FormatInt(n, 10), nil
}

// mebibytes: a size in MiB, in bytes.
func mebibytes(v string) (string, error) {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return "", err
	}
	return strconv.FormatUint(n<<20, 10), nil
}

// indexShortening maps db_bench's --index_shortening_mode numbers to
// BlockBasedTableOptions::IndexShorteningMode; db_bench leaves the table's
// default (kShortenSeparators) for any other number.
func indexShortening(v string) (string, error) {
	switch v {
	case "0":
		return "kNoShortening", nil
	case "2":
		return "kShortenSeparatorsAndSuccessor", nil
	}
	return "kShortenSeparators", nil
}

// prepopulateBlockCache maps db_bench's --prepopulate_block_cache numbers
// to BlockBasedTableOptions::PrepopulateBlockCache; other numbers leave
// the default, as db_bench does.
func prepopulateBlockCache(v string) (string, error) {
	if v == "1" {
		return "kFlushOnly", nil
	}
	return "kDisable", nil
}

// dataBlockIndexType: --use_data_block_hash_index adds a hash index to
// data blocks.
func dataBlockIndexType(v string) (string, error) {
	on, err := strconv.ParseBool(v)
	if err != nil {
		return "", err
	}
	if on {
		return "kDataBlockBinaryAndHash", nil
	}
	return "kDataBlockBinarySearch", nil
}
