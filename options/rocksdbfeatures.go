package options

// This file holds the db_bench options of RocksDB features the other
// engines do not have: cache pools, cache charging and the caches stacked
// on the block cache, the plain and cuckoo table formats, the background
// thread pools, and the hooks db_bench installs (a compaction filter, a
// comparator, an info logger). Each is a db_bench flag with no OPTIONS-file
// statement of its own (or one the table factory writes); the rocksdb
// engine applies them as db_bench 7.8.3 does and the other engines refuse
// them when set away from their defaults.

// RocksDBFeatures are those options, embedded in Options. Field comments
// name the db_bench flag.
type RocksDBFeatures struct {
	// The block cache's pools: the share of the LRU cache kept for high-
	// and low-priority blocks.
	CacheHighPriPoolRatio float64 // cache_high_pri_pool_ratio
	CacheLowPriPoolRatio  float64 // cache_low_pri_pool_ratio

	// Cache charging: memory the block cache accounts for besides blocks
	// (BlockBasedTableOptions::cache_usage_options), and the memtables'
	// memory through a WriteBufferManager.
	ChargeCompressionDictionaryBuildingBuffer bool // charge_compression_dictionary_building_buffer
	ChargeFilterConstruction                  bool // charge_filter_construction
	ChargeTableReader                         bool // charge_table_reader
	ChargeFileMetadata                        bool // charge_file_metadata
	ChargeBlobCache                           bool // charge_blob_cache
	CostWriteBufferToCache                    bool // cost_write_buffer_to_cache

	// The compressed secondary cache behind the LRU block cache.
	UseCompressedSecondaryCache                bool    // use_compressed_secondary_cache
	CompressedSecondaryCacheSize               int64   // compressed_secondary_cache_size
	CompressedSecondaryCacheNumShardBits       int     // compressed_secondary_cache_numshardbits
	CompressedSecondaryCacheHighPriPoolRatio   float64 // compressed_secondary_cache_high_pri_pool_ratio
	CompressedSecondaryCacheLowPriPoolRatio    float64 // compressed_secondary_cache_low_pri_pool_ratio
	CompressedSecondaryCacheCompressionType    string  // compressed_secondary_cache_compression_type
	CompressedSecondaryCacheCompressFormatVers int     // compressed_secondary_cache_compress_format_version

	// SimCacheSize, when >= 0, wraps the block cache in a simulated cache
	// of that many bytes, whose hit statistics are printed at the end.
	SimCacheSize int64 // simcache_size

	// Block cache tracing: every block cache access, one in
	// BlockCacheTraceSamplingFrequency, is written to BlockCacheTraceFile
	// (none when "") in RocksDB's block cache trace format, up to
	// BlockCacheTraceMaxTraceFileSizeInBytes.
	BlockCacheTraceFile                    string // block_cache_trace_file
	BlockCacheTraceMaxTraceFileSizeInBytes int64  // block_cache_trace_max_trace_file_size_in_bytes
	BlockCacheTraceSamplingFrequency       int    // block_cache_trace_sampling_frequency

	// The table formats besides the block-based one.
	UsePlainTable       bool    // use_plain_table
	UseCuckooTable      bool    // use_cuckoo_table
	CuckooHashRatio     float64 // cuckoo_hash_ratio
	IdentityAsFirstHash bool    // identity_as_first_hash
	// HashBucketCount is the bucket count of the prefix_hash and
	// hash_linkedlist memtables.
	HashBucketCount int64 // hash_bucket_count

	// The background thread pools of the environment, and lowered
	// priorities for their threads.
	NumHighPriThreads   int  // num_high_pri_threads
	NumLowPriThreads    int  // num_low_pri_threads
	NumBottomPriThreads int  // num_bottom_pri_threads
	EnableCPUPrio       bool // enable_cpu_prio
	EnableIOPrio        bool // enable_io_prio

	// Hooks: a compaction filter that keeps every entry, a comparator
	// ordering 8-byte keys as native-endian unsigned integers, per-key
	// checksums in write batches, and the info log on stderr.
	UseKeepFilter                   bool // use_keep_filter
	UseUint64Comparator             bool // use_uint64_comparator
	WriteBatchProtectionBytesPerKey int  // write_batch_protection_bytes_per_key
	UseStderrInfoLogger             bool // use_stderr_info_logger

	// A secondary instance: the database is opened as a secondary of the
	// one at --db, keeping its own files in SecondaryPath (RocksDB's test
	// directory's dbbench_secondary when ""), and catches up with the
	// primary every SecondaryUpdateInterval seconds (never when <= 0).
	UseSecondaryDB          bool   // use_secondary_db
	SecondaryPath           string // secondary_path
	SecondaryUpdateInterval int    // secondary_update_interval

	// Column families: db_bench's writes and reads spread over
	// NumColumnFamilies families (<= 1: the default family alone), of which
	// NumHotColumnFamilies (0, or not below NumColumnFamilies: all) exist
	// at open and take operations at a time (columnfamilies.go).
	NumColumnFamilies    int // num_column_families
	NumHotColumnFamilies int // num_hot_column_families

	// ReportFileOperations counts the database's file operations and
	// prints the counts after every benchmark's result line.
	ReportFileOperations bool // report_file_operations

	// KeySize is the driver's --key_size, which the plain table (its key
	// length) and the uint64 comparator (8 bytes only) need.
	KeySize int
}

// defaultRocksDBFeatures are db_bench 7.8.3's defaults.
func defaultRocksDBFeatures() RocksDBFeatures {
	return RocksDBFeatures{
		CompressedSecondaryCacheSize:               8 << 20,
		CompressedSecondaryCacheNumShardBits:       6,
		CompressedSecondaryCacheCompressionType:    "lz4",
		CompressedSecondaryCacheCompressFormatVers: 2,
		SimCacheSize:                           -1,
		BlockCacheTraceMaxTraceFileSizeInBytes: 64 << 30,
		BlockCacheTraceSamplingFrequency:       1,
		CuckooHashRatio:                        0.9,
		HashBucketCount:                        1 << 20,
		KeySize:                                16,
		SecondaryUpdateInterval:                5,
		NumColumnFamilies:                      1,
	}
}

// rocksDBFeatureSpecs are the options of RocksDBFeatures, all set by flag
// only.
var rocksDBFeatureSpecs = []Spec{
	flagOpt("cache_high_pri_pool_ratio", setFloat(func(o *Options) *float64 { return &o.CacheHighPriPoolRatio })),
	flagOpt("cache_low_pri_pool_ratio", setFloat(func(o *Options) *float64 { return &o.CacheLowPriPoolRatio })),
	flagOpt("charge_compression_dictionary_building_buffer", setBool(func(o *Options) *bool { return &o.ChargeCompressionDictionaryBuildingBuffer })),
	flagOpt("charge_filter_construction", setBool(func(o *Options) *bool { return &o.ChargeFilterConstruction })),
	flagOpt("charge_table_reader", setBool(func(o *Options) *bool { return &o.ChargeTableReader })),
	flagOpt("charge_file_metadata", setBool(func(o *Options) *bool { return &o.ChargeFileMetadata })),
	flagOpt("charge_blob_cache", setBool(func(o *Options) *bool { return &o.ChargeBlobCache })),
	flagOpt("cost_write_buffer_to_cache", setBool(func(o *Options) *bool { return &o.CostWriteBufferToCache })),
	flagOpt("use_compressed_secondary_cache", setBool(func(o *Options) *bool { return &o.UseCompressedSecondaryCache })),
	flagOpt("compressed_secondary_cache_size", setInt64(func(o *Options) *int64 { return &o.CompressedSecondaryCacheSize })),
	flagOpt("compressed_secondary_cache_numshardbits", setInt(func(o *Options) *int { return &o.CompressedSecondaryCacheNumShardBits })),
	flagOpt("compressed_secondary_cache_high_pri_pool_ratio", setFloat(func(o *Options) *float64 { return &o.CompressedSecondaryCacheHighPriPoolRatio })),
	flagOpt("compressed_secondary_cache_low_pri_pool_ratio", setFloat(func(o *Options) *float64 { return &o.CompressedSecondaryCacheLowPriPoolRatio })),
	flagOpt("compressed_secondary_cache_compression_type", setString(func(o *Options) *string { return &o.CompressedSecondaryCacheCompressionType })),
	flagOpt("compressed_secondary_cache_compress_format_version", setInt(func(o *Options) *int { return &o.CompressedSecondaryCacheCompressFormatVers })),
	flagOpt("simcache_size", setInt64(func(o *Options) *int64 { return &o.SimCacheSize })),
	flagOpt("block_cache_trace_file", setString(func(o *Options) *string { return &o.BlockCacheTraceFile })),
	flagOpt("block_cache_trace_max_trace_file_size_in_bytes", setInt64(func(o *Options) *int64 { return &o.BlockCacheTraceMaxTraceFileSizeInBytes })),
	flagOpt("block_cache_trace_sampling_frequency", setInt(func(o *Options) *int { return &o.BlockCacheTraceSamplingFrequency })),
	flagOpt("use_plain_table", setBool(func(o *Options) *bool { return &o.UsePlainTable })),
	flagOpt("use_cuckoo_table", setBool(func(o *Options) *bool { return &o.UseCuckooTable })),
	flagOpt("cuckoo_hash_ratio", setFloat(func(o *Options) *float64 { return &o.CuckooHashRatio })),
	flagOpt("identity_as_first_hash", setBool(func(o *Options) *bool { return &o.IdentityAsFirstHash })),
	flagOpt("hash_bucket_count", setInt64(func(o *Options) *int64 { return &o.HashBucketCount })),
	flagOpt("num_high_pri_threads", setInt(func(o *Options) *int { return &o.NumHighPriThreads })),
	flagOpt("num_low_pri_threads", setInt(func(o *Options) *int { return &o.NumLowPriThreads })),
	flagOpt("num_bottom_pri_threads", setInt(func(o *Options) *int { return &o.NumBottomPriThreads })),
	flagOpt("enable_cpu_prio", setBool(func(o *Options) *bool { return &o.EnableCPUPrio })),
	flagOpt("enable_io_prio", setBool(func(o *Options) *bool { return &o.EnableIOPrio })),
	flagOpt("use_keep_filter", setBool(func(o *Options) *bool { return &o.UseKeepFilter })),
	flagOpt("use_uint64_comparator", setBool(func(o *Options) *bool { return &o.UseUint64Comparator })),
	flagOpt("write_batch_protection_bytes_per_key", setInt(func(o *Options) *int { return &o.WriteBatchProtectionBytesPerKey })),
	flagOpt("num_column_families", setInt(func(o *Options) *int { return &o.NumColumnFamilies })),
	flagOpt("num_hot_column_families", setInt(func(o *Options) *int { return &o.NumHotColumnFamilies })),
	flagOpt("report_file_operations", setBool(func(o *Options) *bool { return &o.ReportFileOperations })),
	flagOpt("use_secondary_db", setBool(func(o *Options) *bool { return &o.UseSecondaryDB })),
	flagOpt("secondary_path", setString(func(o *Options) *string { return &o.SecondaryPath })),
	flagOpt("secondary_update_interval", setInt(func(o *Options) *int { return &o.SecondaryUpdateInterval })),
	flagOpt("use_stderr_info_logger", setBool(func(o *Options) *bool { return &o.UseStderrInfoLogger })),
}
