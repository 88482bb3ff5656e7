package dbbench_test

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/godbbench/godbbench/options"
)

// optionFlagValues are values other than db_bench's defaults, which C++
// db_bench 7.8.3 accepts, for every flag that sets an engine option.
var optionFlagValues = map[string][]string{
	"write_buffer_size": {"8388608"}, "max_write_buffer_number": {"3"},
	"min_write_buffer_number_to_merge": {"2"}, "db_write_buffer_size": {"33554432"},
	"arena_block_size": {"65536"}, "allow_concurrent_memtable_write": {"false"},
	"enable_pipelined_write": {"false"}, "memtablerep": {"vector", "skip_list"},
	"skip_list_lookahead": {"3"}, "memtable_bloom_size_ratio": {"0.1"}, "num_levels": {"5"},
	"level0_file_num_compaction_trigger": {"6"}, "level0_slowdown_writes_trigger": {"25"},
	"level0_stop_writes_trigger": {"40"}, "target_file_size_base": {"33554432"},
	"target_file_size_multiplier": {"2"}, "max_bytes_for_level_base": {"134217728"},
	"max_bytes_for_level_multiplier":            {"8", "7.5"},
	"max_bytes_for_level_multiplier_additional": {"1,2,1,2,1,2,1"},
	"level_compaction_dynamic_level_bytes":      {"true"}, "compaction_style": {"1", "2"},
	"compaction_pri": {"0", "1", "2"}, "disable_auto_compactions": {"true"},
	"max_compaction_bytes": {"1000000"}, "soft_pending_compaction_bytes_limit": {"1000000000"},
	"hard_pending_compaction_bytes_limit": {"2000000000"}, "delayed_write_rate": {"1000000"},
	"max_background_jobs": {"4"}, "max_background_compactions": {"3"},
	"max_background_flushes": {"2"}, "subcompactions": {"2"},
	"compression_type": {"zstd", "none", "lz4"}, "compression_level": {"3"},
	"min_level_to_compress": {"2"}, "compression_max_dict_bytes": {"16384"},
	"cache_size": {"1048576", "0"}, "cache_numshardbits": {"4"}, "cache_type": {"hyper_clock_cache"},
	"cache_index_and_filter_blocks": {"true"}, "pin_l0_filter_and_index_blocks_in_cache": {"true"},
	"block_size": {"8192"}, "block_restart_interval": {"8"}, "index_block_restart_interval": {"4"},
	"bloom_bits": {"10"}, "whole_key_filtering": {"false"}, "format_version": {"4"},
	"checksum_type": {"1", "2", "3"}, "open_files": {"500"}, "table_cache_numshardbits": {"6"},
	"optimize_filters_for_hits": {"true"}, "prefix_size": {"8"}, "use_direct_reads": {"true"},
	"use_direct_io_for_flush_and_compaction": {"true"}, "mmap_read": {"true"}, "mmap_write": {"true"},
	"bytes_per_sync": {"1048576"}, "wal_bytes_per_sync": {"1048576"}, "use_fsync": {"true"},
	"compaction_readahead_size": {"1048576"}, "max_total_wal_size": {"1000000"},
	"paranoid_checks": {"false"}, "advise_random_on_open": {"false"},

	// Set by name (options/byname.go).
	"allow_data_in_errors": {"true"}, "avoid_flush_during_recovery": {"true"},
	"dump_malloc_stats": {"false"}, "enable_write_thread_adaptive_yield": {"false"},
	"file_opening_threads": {"8"}, "log_readahead_size": {"4096"}, "manual_wal_flush": {"true"},
	"random_access_max_buffer_size": {"2097152"}, "report_bg_io_stats": {"true"},
	"stats_dump_period_sec": {"300"}, "stats_history_buffer_size": {"2097152"},
	"stats_persist_period_sec": {"300"}, "track_and_verify_wals_in_manifest": {"true"},
	"use_adaptive_mutex": {"true"}, "wal_size_limit_MB": {"64"}, "wal_ttl_seconds": {"60"},
	"writable_file_max_buffer_size": {"2097152"}, "write_thread_max_yield_usec": {"50"},
	"write_thread_slow_yield_usec": {"5"}, "thread_status_per_interval": {"1"},
	"blob_compaction_readahead_size": {"65536"}, "blob_compression_type": {"zstd", "snappy"},
	"blob_file_size": {"1048576"}, "blob_file_starting_level": {"1"},
	"blob_garbage_collection_age_cutoff": {"0.5"}, "blob_garbage_collection_force_threshold": {"0.5"},
	"check_flush_compaction_key_order": {"false"}, "enable_blob_files": {"true"},
	"enable_blob_garbage_collection": {"true"}, "experimental_mempurge_threshold": {"0.5"},
	"force_consistency_checks": {"false"}, "inplace_update_num_locks": {"100"},
	"max_successive_merges": {"5"}, "max_write_buffer_number_to_maintain": {"2"},
	"max_write_buffer_size_to_maintain": {"1048576"}, "memtable_whole_key_filtering": {"true"},
	"memtable_use_huge_page": {"true"}, "memtable_insert_with_hint_prefix_size": {"4"},
	"min_blob_size": {"64"}, "preclude_last_level_data_seconds": {"100"},
	"preserve_internal_time_seconds": {"100"}, "compression_max_dict_buffer_bytes": {"4096"},
	"compression_parallel_threads": {"2"}, "compression_use_zstd_dict_trainer": {"false"},
	"compression_zstd_max_train_bytes": {"65536"}, "universal_size_ratio": {"2"},
	"universal_min_merge_width": {"3"}, "universal_max_merge_width": {"10"},
	"universal_max_size_amplification_percent": {"150"}, "universal_compression_size_percent": {"50"},
	"universal_allow_trivial_move": {"true"}, "universal_incremental": {"true"},
	"fifo_age_for_warm": {"100"}, "fifo_compaction_allow_compaction": {"false"},
	"fifo_compaction_max_table_files_size_mb": {"64"}, "bloom_locality": {"1"},
	"data_block_hash_table_util_ratio": {"0.5"}, "enable_index_compression": {"false"},
	"index_shortening_mode": {"0", "1"}, "initial_auto_readahead_size": {"16384"},
	"max_auto_readahead_size": {"131072"}, "num_file_reads_for_auto_readahead": {"3"},
	"optimize_filters_for_memory": {"true"}, "pin_top_level_index_and_filter": {"true"},
	"read_amp_bytes_per_bit": {"16"}, "use_data_block_hash_index": {"true"},
	"unordered_write": {"true"}, "compaction_fadvice": {"SEQUENTIAL", "willneed", "None"},
	"wal_compression": {"zstd", "snappy"}, "inplace_update_support": {"true"},
	"memtable_protection_bytes_per_key": {"1", "8"}, "block_align": {"true"},
	"index_with_first_key": {"true"}, "partition_index": {"true"},
	"periodic_compaction_seconds": {"1000"}, "ttl_seconds": {"1000"},
	"metadata_block_size": {"1024"}, "prepopulate_block_cache": {"1"},
	"rate_limiter_bytes_per_sec": {"1000000"}, "persist_stats_to_disk": {"true"},
	"partition_index_and_filters": {"true"}, "use_ribbon_filter": {"true"}, "file_checksum": {"true"},
	"use_hash_search": {"true"}, "use_plain_table": {"true"}, "use_cuckoo_table": {"true"},
	"cuckoo_hash_ratio": {"0.5"}, "identity_as_first_hash": {"true"}, "hash_bucket_count": {"1024"},
	"use_uint64_comparator": {"true"},
	"merge_operator": {"put", "put_v1", "uint64add", "UInt64AddOperator", "max", "bytesxor", "stringappend",
		"stringappendtest", "sortlist", "put_v2", "bogus"},
}

// optionFlagsNotInFile are option flags the OPTIONS file cannot show: write
// and read options, this project's extension, and what db_bench keeps
// outside Options.
var optionFlagsNotInFile = map[string]string{
	"sync": "a write option", "disable_wal": "a write option", "verify_checksum": "a read option",
	"readonly":                "opens read-only, writing no OPTIONS file",
	"wal_recovery_mode":       "this project's extension flag; C++ db_bench has no such flag",
	"num_column_families":     "how many families are opened: TestOracleOptionsFileColumnFamilies",
	"num_hot_column_families": "the same",
	"report_file_operations":  "the counting file system is not serialized (TestOracleFileOperations)",
	"wal_dir":                 "a path, which differs between the two runs",
	"statistics":              "the statistics object is not serialized", "statistics_string": "the same",
	"stats_level":                   "the same",
	"rate_limiter_refill_period_us": "the rate limiter is not serialized (its bytes_per_sync default is: rate_limiter_bytes_per_sec)",
	"rate_limiter_auto_tuned":       "the same", "rate_limit_bg_reads": "the same",
	"row_cache_size":       "the row cache is not serialized (TestRowCacheServesRepeatedGets)",
	"table_format":         "this project's extension flag (the native engine's table format)",
	"total_order_seek":     "a read option (options.ReadOptions), which OPTIONS files do not hold",
	"prefix_same_as_start": "the same", "auto_prefix_mode": "the same", "readahead_size": "the same",
	"adaptive_readahead": "the same", "multiread_batched": "the same", "async_io": "the same", "optimize_multiget_for_io": "the same",
	"rate_limit_user_ops": "the same", "rate_limit_auto_wal_flush": "a write option, the same",
	"transaction_db":            "how the DB is opened (TransactionDB), which OPTIONS files do not hold",
	"optimistic_transaction_db": "the same",

	// RocksDB features db_bench sets outside the serialized options
	// (options.RocksDBFeatures); TestRocksDBFeatureFlags checks each.
	"cache_high_pri_pool_ratio": "the block cache is not serialized", "cache_low_pri_pool_ratio": "the same",
	"use_compressed_secondary_cache": "the same", "compressed_secondary_cache_size": "the same",
	"compressed_secondary_cache_numshardbits": "the same", "compressed_secondary_cache_high_pri_pool_ratio": "the same",
	"compressed_secondary_cache_low_pri_pool_ratio": "the same", "compressed_secondary_cache_compression_type": "the same",
	"compressed_secondary_cache_compress_format_version": "the same", "simcache_size": "the same",
	"charge_compression_dictionary_building_buffer": "cache_usage_options is not serialized",
	"charge_filter_construction":                    "the same", "charge_table_reader": "the same", "charge_file_metadata": "the same",
	"charge_blob_cache":          "the same",
	"cost_write_buffer_to_cache": "the write buffer manager is not serialized",
	"num_high_pri_threads":       "the environment's thread pools are not serialized", "num_low_pri_threads": "the same",
	"num_bottom_pri_threads": "the same", "enable_cpu_prio": "the same", "enable_io_prio": "the same",
	"write_batch_protection_bytes_per_key":           "a write option",
	"use_stderr_info_logger":                         "the info logger is not serialized",
	"block_cache_trace_file":                         "a trace of the run, not an option (TestBlockCacheTrace)",
	"block_cache_trace_max_trace_file_size_in_bytes": "the same", "block_cache_trace_sampling_frequency": "the same",
	"use_secondary_db": "a secondary instance writes its OPTIONS file into --secondary_path (TestSecondaryInstance)",
	"secondary_path":   "the same", "secondary_update_interval": "the same",
	"use_keep_filter": "C++ db_bench installs the filter after its first open, whose OPTIONS file has none",
}

// optionRounds is how many times every option flag is drawn, each time into
// other combinations (OPTIONS_ROUNDS overrides it for a longer run).
var optionRounds = func() int {
	if n, err := strconv.Atoi(os.Getenv("OPTIONS_ROUNDS")); err == nil && n > 0 {
		return n
	}
	return 3
}()

// flagPairs are flags C++ db_bench only accepts together.
var flagPairs = map[string][]string{
	"compression_zstd_max_train_bytes": {"--compression_max_dict_bytes=16384"},
	"inplace_update_support":           {"--allow_concurrent_memtable_write=false"},
	"unordered_write":                  {"--enable_pipelined_write=false"},
	"block_align":                      {"--compression_type=none"},
	"use_ribbon_filter":                {"--bloom_bits=10"},
	"metadata_block_size":              {"--partition_index=true"},
	"use_hash_search":                  {"--prefix_size=8"},
	"use_plain_table":                  {"--mmap_read=true", "--prefix_size=8"},
	"use_cuckoo_table":                 {"--mmap_read=true"},
	"cuckoo_hash_ratio":                {"--use_cuckoo_table=true", "--mmap_read=true"},
	"identity_as_first_hash":           {"--use_cuckoo_table=true", "--mmap_read=true"},
	"hash_bucket_count":                {"--memtablerep=prefix_hash", "--prefix_size=8"},
	"use_uint64_comparator":            {"--key_size=8"},
}

// TestOracleOptionsFileFromFlags runs random combinations of option flags,
// every one at least once, through C++ db_bench and the rocksdb engine and
// compares the OPTIONS files the two write, option by option. Where C++
// refuses a combination, ours must refuse it too.
func TestOracleOptionsFileFromFlags(t *testing.T) {
	requireRocksDBOracle(t)
	var all []string
	for i := range options.Specs {
		f := options.Specs[i].Flag
		if f == "" || optionFlagsNotInFile[f] != "" {
			continue
		}
		if len(optionFlagValues[f]) == 0 {
			t.Errorf("--%s sets an option but has no test values", f)
			continue
		}
		all = append(all, f)
	}
	rng := rand.New(rand.NewSource(1))
	const perRun = 10
	compared, runs := 0, 0
	for round := 0; round < optionRounds; round++ {
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		for start := 0; start < len(all); start += perRun {
			runs++
			var args []string
			for _, f := range all[start:min(start+perRun, len(all))] {
				vals := optionFlagValues[f]
				args = append(args, "--"+f+"="+vals[rng.Intn(len(vals))])
				args = append(args, flagPairs[f]...)
			}
			want, wantCode := oracleOptionsFile(t, oracleBinary, args)
			got, gotCode := oursOptionsFile(t, args)
			if (wantCode == 0) != (gotCode == 0) {
				t.Errorf("%v: C++ db_bench exit %d, ours %d", args, wantCode, gotCode)
				continue
			}
			if wantCode != 0 {
				continue
			}
			compared++
			if d := diffOptions(want, got); d != "" {
				t.Errorf("%v: OPTIONS files differ:\n%s", args, d)
			}
		}
	}
	if compared*2 < runs {
		t.Errorf("only %d of %d combinations opened on C++ db_bench", compared, runs)
	}
}

func oracleOptionsFile(t *testing.T, bin string, args []string) (map[string]string, int) {
	dir := filepath.Join(t.TempDir(), "db")
	cmd := exec.Command(bin, append([]string{"--db=" + dir, "--benchmarks=fillseq", "--num=1"}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	code := 0
	if err := cmd.Run(); err != nil {
		code = 1
	}
	return readOptionsFile(t, dir), code
}

// oursOptionsFile runs the rocksdb engine in a child process: a
// combination on which Debian's RocksDB asserts aborts it, as it aborts C++
// db_bench.
func oursOptionsFile(t *testing.T, args []string) (map[string]string, int) {
	dir := filepath.Join(t.TempDir(), "db")
	code, _ := runOursSubprocess(t, append([]string{"--engine=rocksdb", "--db=" + dir, "--benchmarks=fillseq", "--num=1"}, args...))
	return readOptionsFile(t, dir), code
}

// readOptionsFile returns the newest OPTIONS file's statements as
// "[section] name" -> value, without the comment lines, or nil.
func readOptionsFile(t *testing.T, dir string) map[string]string {
	files, _ := filepath.Glob(filepath.Join(dir, "OPTIONS-*"))
	if len(files) == 0 {
		return nil
	}
	sort.Strings(files)
	b, err := os.ReadFile(files[len(files)-1])
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	section := ""
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case strings.HasPrefix(l, "["):
			section = l
		default:
			name, value, _ := strings.Cut(l, "=")
			m[section+" "+name] = value
		}
	}
	return m
}

// diffOptions lists the statements that differ. The listeners line is
// skipped: C++ db_bench adds its own ErrorHandlerListener class.
func diffOptions(want, got map[string]string) string {
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		if strings.HasSuffix(k, " listeners") {
			continue
		}
		w, wok := want[k]
		g, gok := got[k]
		if w != g || wok != gok {
			b.WriteString("  " + k + ": C++ " + w + ", ours " + g + "\n")
		}
	}
	return b.String()
}

// TestOracleOptionsFileColumnFamilies: C++ db_bench writes one [CFOptions]
// section per family it opens (all of them, or the hot ones), and so does
// the rocksdb engine, with the same options.
func TestOracleOptionsFileColumnFamilies(t *testing.T) {
	requireRocksDBOracle(t)
	for _, args := range [][]string{
		{"--num_column_families=3"},
		{"--num_column_families=4", "--num_hot_column_families=2", "--write_buffer_size=8388608"},
	} {
		want, wantCode := oracleOptionsFile(t, oracleBinary, args)
		got, gotCode := oursOptionsFile(t, args)
		if wantCode != 0 || gotCode != 0 {
			t.Fatalf("%v: C++ db_bench exit %d, ours %d", args, wantCode, gotCode)
		}
		if d := diffOptions(want, got); d != "" {
			t.Errorf("%v: OPTIONS files differ:\n%s", args, d)
		}
		sections := 0
		for k := range got {
			if strings.HasPrefix(k, "[CFOptions ") && strings.HasSuffix(k, " write_buffer_size") {
				sections++
			}
		}
		if sections < 2 {
			t.Errorf("%v: %d [CFOptions] sections, want one per family", args, sections)
		}
	}
}
