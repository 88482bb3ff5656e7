package dbbench

// noEffectGroups are the db_bench 7.8.3 flags that change nothing here on any
// engine, grouped by the feature they belong to. Setting one prints
// "WARNING: --NAME is accepted for compatibility but has no effect here"
// once (warnIgnoredFlags). Each flag of db_bench is in exactly one of
// configFlags, options.Specs, parserFlags, noEffectGroups or the analyzer
// tools' flags (toolFlagFiles); TestEveryFlagAccountedOnce checks it.
var noEffectGroups = []struct {
	feature string
	flags   []string
}{
	{"stacked BlobDB and blob caches", []string{
		"blob_cache_numshardbits", "blob_cache_size", "blob_db_bytes_per_sync",
		"blob_db_compression_type", "blob_db_enable_gc", "blob_db_file_size", "blob_db_gc_cutoff",
		"blob_db_is_fifo", "blob_db_max_db_size", "blob_db_max_ttl_range", "blob_db_min_blob_size",
		"blob_db_ttl_range_secs", "prepopulate_blob_cache", "use_blob_cache",
		"use_blob_db", "use_shared_block_and_blob_cache",
	}},
	{"FIFO compaction by age: db_bench 7.8.3 sets options.ttl from it and then from --ttl_seconds, so it changes nothing there either", []string{
		"fifo_compaction_ttl",
	}},
	{"randomtransaction's pause: db_bench 7.8.3 reads the flag nowhere either", []string{
		"transaction_sleep",
	}},
	{"mixgraph's total accesses: db_bench 7.8.3 reads the flag nowhere either", []string{
		"mix_accesses",
	}},
	{"caches beyond the block cache", []string{
		"compressed_cache_size", "read_cache_direct_read", "read_cache_direct_write",
		"read_cache_path", "read_cache_size", "secondary_cache_uri",
		"use_cache_jemalloc_no_dump_allocator", "use_cache_memkind_kmem_allocator",
	}},
	{"thread pools and priorities", []string{
		"enable_numa",
	}},
	{"io_uring: Debian's RocksDB is built without it, so C++ db_bench changes nothing either", []string{
		"io_uring_enabled",
	}},
	{"secondary instances and custom environments", []string{
		"env_uri", "fs_uri", "simulate_hdd", "simulate_hybrid_fs_file",
		"simulate_hybrid_hdd_multipliers",
	}},
	{"read options: user timestamps", []string{
		"read_with_latest_user_timestamp",
	}},
	{"obsolete: db_bench 7.8.3 reads the flag nowhere either", []string{
		"delete_obsolete_files_period_micros", "disable_seek_compaction",
	}},
}

// refusedFlags are the no-effect flags that would change what a run
// measures: set away from their defaults, the run stops before it opens
// anything (exit 1) with the message given here, instead of warning and
// running something else. The last three are C++ db_bench's own refusals
// on Debian's build, in its words.
var refusedFlags = map[string]string{
	"use_blob_db":                          "Not implemented: --use_blob_db: stacked BlobDB is not supported on any engine; the integrated BlobDB is --enable_blob_files",
	"enable_numa":                          "NUMA is not defined in the system.",
	"use_cache_jemalloc_no_dump_allocator": "JemallocNodumpAllocator not supported.",
	"use_cache_memkind_kmem_allocator":     "Memkind library is not linked with the binary.",
}

// toolFlagFiles are the --help source files of the flags Debian's db_bench
// accepts because its library links the trace analyzer, the block cache
// trace analyzer and the I/O tracer parser; db_bench ignores them, and so
// does this driver (with the same warning as noEffectGroups).
var toolFlagFiles = setOf(
	"./tools/trace_analyzer_tool.cc",
	"./tools/block_cache_analyzer/block_cache_trace_analyzer.cc",
	"./tools/io_tracer_parser_tool.cc",
)

// noEffectFlags indexes noEffectGroups by flag name.
var noEffectFlags = func() map[string]bool {
	m := map[string]bool{}
	for _, g := range noEffectGroups {
		for _, n := range g.flags {
			m[n] = true
		}
	}
	return m
}()
