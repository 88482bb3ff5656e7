package dbbench

import (
	"fmt"
	"io"
	"sort"
)

// driverFlags are the flags the driver itself reads (config.go, main.go).
var driverFlags = setOf(
	"engine", "db", "benchmarks", "num", "reads", "writes", "deletes", "threads", "key_size",
	"value_size", "value_size_distribution_type", "value_size_min", "value_size_max",
	"compression_ratio", "batch_size", "sync", "disable_wal", "use_existing_db", "readonly",
	"histogram", "slow_usecs", "progress_reports", "stats_interval", "stats_interval_seconds",
	"stats_per_interval", "report_interval_seconds", "report_file", "benchmark_write_rate_limit",
	"benchmark_read_rate_limit", "duration", "ops_between_duration_checks", "finish_after_writes",
	"read_random_exp_range", "scan_omit_key", "scan_omit_value", "max_scan_distance",
	"reverse_iterator", "seek_nexts", "seek_missing_prefix", "readwritepercent",
	"compact_target_level", "multiread_stride", "confidence_interval_only",
	"report_bench_start_time", "keys_per_prefix", "prefix_size", "statistics", "seed",
	"report_json", "profile", "profile_dir", "profiles_query_limit", "profiles_seed",
	"profiles_queries", "profiles_full_compact", "compression_type", "sample_for_compression",
	"memtablerep", "skip_list_lookahead", "perf_level", "options_file", "flagfile", "undefok",
	"fromenv", "tryfromenv", "user_timestamp_size",
)

// optionFlags are the flags turned into engine options (makeOptions); the
// engine warns about the ones it cannot honour.
var optionFlags = setOf(
	"write_buffer_size", "max_write_buffer_number", "min_write_buffer_number_to_merge",
	"db_write_buffer_size", "arena_block_size", "allow_concurrent_memtable_write",
	"enable_pipelined_write", "memtable_bloom_size_ratio", "num_levels",
	"level0_file_num_compaction_trigger", "level0_slowdown_writes_trigger",
	"level0_stop_writes_trigger", "target_file_size_base", "target_file_size_multiplier",
	"max_bytes_for_level_base", "max_bytes_for_level_multiplier",
	"max_bytes_for_level_multiplier_additional", "level_compaction_dynamic_level_bytes",
	"compaction_style", "compaction_pri", "disable_auto_compactions", "max_compaction_bytes",
	"soft_pending_compaction_bytes_limit", "hard_pending_compaction_bytes_limit",
	"delayed_write_rate", "max_background_jobs", "max_background_compactions",
	"max_background_flushes", "subcompactions", "compression_level", "min_level_to_compress",
	"compression_max_dict_bytes", "cache_size", "cache_numshardbits", "cache_type",
	"cache_index_and_filter_blocks", "pin_l0_filter_and_index_blocks_in_cache", "block_size",
	"block_restart_interval", "index_block_restart_interval", "bloom_bits",
	"whole_key_filtering", "format_version", "checksum_type", "open_files",
	"table_cache_numshardbits", "optimize_filters_for_hits", "use_direct_reads",
	"use_direct_io_for_flush_and_compaction", "mmap_read", "mmap_write", "bytes_per_sync",
	"wal_bytes_per_sync", "use_fsync", "compaction_readahead_size", "verify_checksum", "wal_dir",
	"max_total_wal_size", "paranoid_checks", "advise_random_on_open", "stats_level", "wal_recovery_mode",
	"statistics_string",
)

// notImplementedBenchmarks are db_bench 7.8.3 benchmark names this driver
// does not run; they are skipped with a notice (they appear in db_bench's
// default --benchmarks list), unlike a truly unknown name, which is fatal.
var notImplementedBenchmarks = setOf(
	"fillseqdeterministic", "filluniquerandomdeterministic", "fillanddeleteuniquerandom",
	"seekrandomwhilemerging", "readwhilemerging", "readwhilescanning",
	"readtorowcache", "readrandomfast", "approximatesizerandom",
	"mixgraph", "xorupdaterandom", "appendrandom", "mergerandom", "readrandommergerandom",
	"randomwithverify", "crc32c", "xxhash", "xxhash64", "xxh3", "acquireload", "compress",
	"uncompress", "fillseekseq", "randomtransaction", "randomreplacekeys", "timeseries",
	"getmergeoperands", "readrandomoperands", "backup", "restore", "compact0", "compact1",
	"verify", "block_cache_entry_stats", "stats_history", "replay",
	"verifychecksum", "verifyfilechecksums",
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// warnIgnoredFlags reports, once, each explicitly set flag that neither the
// driver nor the engine options use, so nothing is silently ignored.
func warnIgnoredFlags(w io.Writer, explicit map[string]string) {
	var names []string
	for n := range explicit {
		if !driverFlags[n] && !optionFlags[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "WARNING: --%s is accepted for compatibility but has no effect here\n", n)
	}
}
