package engine

import "slices"

// rocksDBFeatureHow says, for each option of options.RocksDBFeatures, what
// an engine without the feature lacks.
var rocksDBFeatureHow = []struct{ key, how string }{
	{"cache_high_pri_pool_ratio", "the block cache has no priority pools"},
	{"cache_low_pri_pool_ratio", "the block cache has no priority pools"},
	{"charge_compression_dictionary_building_buffer", "no cache charging"},
	{"charge_filter_construction", "no cache charging"},
	{"charge_table_reader", "no cache charging"},
	{"charge_file_metadata", "no cache charging"},
	{"charge_blob_cache", "no cache charging"},
	{"cost_write_buffer_to_cache", "memtables are not charged to the block cache"},
	{"use_compressed_secondary_cache", "no secondary cache"},
	{"compressed_secondary_cache_size", "no secondary cache"},
	{"compressed_secondary_cache_numshardbits", "no secondary cache"},
	{"compressed_secondary_cache_high_pri_pool_ratio", "no secondary cache"},
	{"compressed_secondary_cache_low_pri_pool_ratio", "no secondary cache"},
	{"compressed_secondary_cache_compression_type", "no secondary cache"},
	{"compressed_secondary_cache_compress_format_version", "no secondary cache"},
	{"simcache_size", "no simulated cache"},
	{"block_cache_trace_file", "no block cache tracing"},
	{"block_cache_trace_max_trace_file_size_in_bytes", "no block cache tracing"},
	{"block_cache_trace_sampling_frequency", "no block cache tracing"},
	{"use_plain_table", "no plain table format"},
	{"use_cuckoo_table", "no cuckoo table format"},
	{"cuckoo_hash_ratio", "no cuckoo table format"},
	{"identity_as_first_hash", "no cuckoo table format"},
	{"hash_bucket_count", "no hash memtables"},
	{"num_high_pri_threads", "no background thread pools to size"},
	{"num_low_pri_threads", "no background thread pools to size"},
	{"num_bottom_pri_threads", "no background thread pools to size"},
	{"enable_cpu_prio", "background work runs on goroutines, whose priority cannot be lowered"},
	{"enable_io_prio", "background work runs on goroutines, whose priority cannot be lowered"},
	{"use_keep_filter", "no compaction filters"},
	{"use_uint64_comparator", "keys are ordered bytewise only"},
	{"write_batch_protection_bytes_per_key", "no per-key checksums in write batches"},
	{"use_stderr_info_logger", "the info log goes to the LOG file only"},
	{"use_secondary_db", "no secondary instances"},
	{"secondary_path", "no secondary instances"},
	{"secondary_update_interval", "no secondary instances"},
	{"num_column_families", "no column families: one family would measure something else"},
	{"num_hot_column_families", "no column families"},
	{"report_file_operations", "no counting file layer"},
}

// RocksDBFeatureNotes refuse the options of RocksDB features
// (options.RocksDBFeatures) for an engine that lacks them: set away from
// their defaults, the open fails (RefusedOption). The keys in handled,
// which the engine applies itself, are left out.
func RocksDBFeatureNotes(handled ...string) []OptionNote {
	var notes []OptionNote
	for _, f := range rocksDBFeatureHow {
		if !slices.Contains(handled, f.key) {
			notes = append(notes, OptionNote{Key: f.key, Refused: true, How: f.how})
		}
	}
	return notes
}
