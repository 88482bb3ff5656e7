//go:build rocksdb

package rocksdb

// This file turns an engine-neutral options.Options into a RocksDB
// rocksdb_options_t the way db_bench 7.8.3 does: every field is applied, not
// only the explicit ones, because RocksDB's Options() defaults differ from
// db_bench's flag defaults (enable_pipelined_write, table_cache_numshardbits,
// delayed_write_rate, ...). Settings the C API has no setter for go through
// RocksDB's own option-string parser (rocksdb_get_options_from_string).

/*
#include <stdlib.h>
#include <rocksdb/c.h>
#include "bridge.h"
#include "flagfeatures.h"
#include "filecounters.h"
*/
import "C"

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/options"
)

// config owns the C objects built from Options; the DB keeps it alive until
// Close because RocksDB reads the options (and statistics) through it.
type config struct {
	opts  *C.rocksdb_options_t
	cache *C.rocksdb_cache_t // nil when the block cache is disabled
	env   *C.rocksdb_env_t
	// statistics reports whether the options have a statistics object.
	statistics bool
}

func (c *config) destroy() {
	if c.opts != nil {
		C.rocksdb_options_destroy(c.opts)
		c.opts = nil
	}
	if c.cache != nil {
		C.rocksdb_cache_destroy(c.cache)
		c.cache = nil
	}
	if c.env != nil {
		C.rocksdb_env_destroy(c.env)
		c.env = nil
	}
}

// compressionCode maps db_bench compression names to the C API enum.
func compressionCode(name string) (C.int, error) {
	switch strings.ToLower(name) {
	case "none":
		return C.rocksdb_no_compression, nil
	case "snappy":
		return C.rocksdb_snappy_compression, nil
	case "zlib":
		return C.rocksdb_zlib_compression, nil
	case "bzip2":
		return C.rocksdb_bz2_compression, nil
	case "lz4":
		return C.rocksdb_lz4_compression, nil
	case "lz4hc":
		return C.rocksdb_lz4hc_compression, nil
	case "xpress":
		return C.rocksdb_xpress_compression, nil
	case "zstd":
		return C.rocksdb_zstd_compression, nil
	}
	return 0, fmt.Errorf("unknown compression type %q", name)
}

var compactionPriNames = []string{
	"kByCompensatedSize", "kOldestLargestSeqFirst", "kOldestSmallestSeqFirst",
	"kMinOverlappingRatio", "kRoundRobin",
}

// buildConfig builds the RocksDB options for o, counting in shared's
// statistics object (nil: one of their own). warnings go to warn.
func buildConfig(o *options.Options, warn io.Writer, shared *sharedStatistics) (*config, error) {
	c := &config{}
	ok := false
	defer func() {
		if !ok {
			c.destroy()
		}
	}()
	c.env = C.rocksdb_create_default_env()
	if err := c.makeBlockCache(o, warn); err != nil {
		return nil, err
	}
	if o.OptionsFile != "" {
		if err := c.loadOptionsFile(o); err != nil {
			return nil, err
		}
	} else {
		c.opts = C.rocksdb_options_create()
		if err := c.applyOptions(o, warn); err != nil {
			return nil, err
		}
	}
	// db_bench's InitializeOptionsGeneral: for options from flags and from
	// a file alike.
	if o.RateLimiterBytesPerSec > 0 {
		if o.RateLimiterRefillPeriodUs <= 0 {
			// RocksDB asserts on it (Debian's C++ db_bench aborts).
			return nil, fmt.Errorf("Invalid argument: --rate_limiter_refill_period_us=%d must be positive", o.RateLimiterRefillPeriodUs)
		}
		C.gdb_set_rate_limiter(c.opts, C.int64_t(o.RateLimiterBytesPerSec), C.int64_t(o.RateLimiterRefillPeriodUs),
			C.int(btoi(o.RateLimitBgReads)), C.int(btoi(o.RateLimiterAutoTuned)))
	}
	if o.RowCacheSize != 0 {
		// A negative size is a huge one, as in db_bench (size_t).
		C.gdb_set_row_cache(c.opts, C.size_t(o.RowCacheSize), C.int(o.CacheNumShardBits))
	}
	C.rocksdb_options_set_create_if_missing(c.opts, 1)
	C.rocksdb_options_set_create_missing_column_families(c.opts, 1)
	C.rocksdb_options_set_env(c.opts, c.env)
	if o.ReportFileOperations {
		C.gdb_use_counted_fs(c.opts)
	}
	if o.Statistics {
		if shared != nil {
			shared.enable(c.opts, o.StatsLevel)
		} else {
			C.rocksdb_options_enable_statistics(c.opts)
			C.gdb_set_stats_level(c.opts, C.int(o.StatsLevel))
		}
		c.statistics = true
	}
	c.setThreadPools(o)
	if o.UseKeepFilter {
		C.gdb_set_keep_filter(c.opts)
	}
	ok = true
	return c, nil
}

// loadOptionsFile reads o.OptionsFile with RocksDB's loader and then adds the
// block cache and a filter as db_bench does (InitializeOptionsFromFile and
// InitializeOptionsGeneral).
func (c *config) loadOptionsFile(o *options.Options) error {
	path := cString(o.OptionsFile)
	defer cFree(unsafe.Pointer(path))
	var cerr *C.char
	c.opts = C.gdb_load_options_file(path, c.cache, &cerr)
	if err := cError(cerr); err != nil {
		return fmt.Errorf("options file %s: %w", o.OptionsFile, err)
	}
	bloom := o.BloomBits
	C.gdb_table_options_adjust(c.opts, c.cache, C.int(bloom))
	return nil
}

// applyOptions sets every field of o on c.opts.
func (c *config) applyOptions(o *options.Options, warn io.Writer) error {
	opts := c.opts
	o.Warn(warn, "rocksdb", engine.IgnoredKeys(OptionNotes)...)

	// Memtables.
	C.rocksdb_options_set_write_buffer_size(opts, C.size_t(o.WriteBufferSize))
	if o.CostWriteBufferToCache || o.DBWriteBufferSize != 0 {
		// db_bench's WriteBufferManager: the DB-wide memtable budget,
		// charged to the block cache (when there is one) either way.
		C.gdb_set_write_buffer_manager(opts, C.size_t(o.DBWriteBufferSize), c.cache)
	}
	C.rocksdb_options_set_max_write_buffer_number(opts, C.int(o.MaxWriteBufferNumber))
	C.rocksdb_options_set_min_write_buffer_number_to_merge(opts, C.int(o.MinWriteBufferNumberToMerge))
	// db_write_buffer_size itself is left at RocksDB's default (0): C++
	// db_bench 7.8.3 applies --db_write_buffer_size through the
	// WriteBufferManager above, and its OPTIONS file keeps 0.
	C.rocksdb_options_set_arena_block_size(opts, C.size_t(o.ArenaBlockSize))
	C.rocksdb_options_set_allow_concurrent_memtable_write(opts, boolByte(o.AllowConcurrentMemtableWrite))
	C.rocksdb_options_set_enable_pipelined_write(opts, boolByte(o.EnablePipelinedWrite))
	C.rocksdb_options_set_memtable_prefix_bloom_size_ratio(opts, C.double(o.MemtableBloomSizeRatio))
	if o.PrefixSize > 0 {
		C.rocksdb_options_set_prefix_extractor(opts, C.rocksdb_slicetransform_create_fixed_prefix(C.size_t(o.PrefixSize)))
	}
	if o.UseUint64Comparator {
		if o.KeySize != 8 {
			return fmt.Errorf("Using Uint64 comparator but key size is not 8.")
		}
		C.gdb_set_uint64_comparator(opts)
	}
	if o.UseStderrInfoLogger {
		C.gdb_set_stderr_info_logger(opts)
	}
	var byString []string // name=value pairs for rocksdb_get_options_from_string
	rep, err := memtableRep(o)
	if err != nil {
		return err
	}
	switch rep.kind {
	case "skip_list":
		if rep.param > 0 {
			byString = append(byString, "memtable_factory=SkipListFactory:"+strconv.Itoa(rep.param))
		}
	case "vector":
		C.rocksdb_options_set_memtable_vector_rep(opts)
		if rep.param > 0 {
			byString = append(byString, "memtable_factory=VectorRepFactory:"+strconv.Itoa(rep.param))
		}
	case "prefix_hash":
		C.rocksdb_options_set_hash_skip_list_rep(opts, C.size_t(rep.param), 4, 4)
	case "hash_linkedlist":
		C.rocksdb_options_set_hash_link_list_rep(opts, C.size_t(rep.param))
	}

	if o.MergeOperator != "" {
		name := cString(o.MergeOperator)
		err := cError(C.gdb_set_merge_operator(opts, name))
		cFree(unsafe.Pointer(name))
		if err != nil {
			return fmt.Errorf("invalid merge operator[%s]: %w", o.MergeOperator, err)
		}
	}

	// LSM shape and compaction.
	C.rocksdb_options_set_num_levels(opts, C.int(o.NumLevels))
	C.rocksdb_options_set_level0_file_num_compaction_trigger(opts, C.int(o.Level0FileNumCompactionTrigger))
	C.rocksdb_options_set_level0_slowdown_writes_trigger(opts, C.int(o.Level0SlowdownWritesTrigger))
	C.rocksdb_options_set_level0_stop_writes_trigger(opts, C.int(o.Level0StopWritesTrigger))
	C.rocksdb_options_set_target_file_size_base(opts, C.uint64_t(o.TargetFileSizeBase))
	C.rocksdb_options_set_target_file_size_multiplier(opts, C.int(o.TargetFileSizeMultiplier))
	C.rocksdb_options_set_max_bytes_for_level_base(opts, C.uint64_t(o.MaxBytesForLevelBase))
	C.rocksdb_options_set_max_bytes_for_level_multiplier(opts, C.double(o.MaxBytesForLevelMultiplier))
	if add := o.MaxBytesForLevelMultiplierAdditional; len(add) > 0 {
		if len(add) != o.NumLevels {
			return fmt.Errorf("Insufficient number of fanouts specified %d", len(add))
		}
		arr := make([]C.int, len(add))
		for i, v := range add {
			arr[i] = C.int(v)
		}
		C.rocksdb_options_set_max_bytes_for_level_multiplier_additional(opts, &arr[0], C.size_t(len(arr)))
	}
	C.rocksdb_options_set_level_compaction_dynamic_level_bytes(opts, boolByte(o.LevelCompactionDynamicLevelBytes))
	if o.CompactionStyle < 0 || o.CompactionStyle > 2 {
		return fmt.Errorf("unknown compaction_style %d", o.CompactionStyle)
	}
	C.rocksdb_options_set_compaction_style(opts, C.int(o.CompactionStyle))
	if o.CompactionPri < 0 || o.CompactionPri >= len(compactionPriNames) {
		return fmt.Errorf("unknown compaction_pri %d", o.CompactionPri)
	}
	byString = append(byString, "compaction_pri="+compactionPriNames[o.CompactionPri])
	C.rocksdb_options_set_disable_auto_compactions(opts, C.int(btoi(o.DisableAutoCompactions)))
	C.rocksdb_options_set_max_compaction_bytes(opts, C.uint64_t(o.MaxCompactionBytes))
	C.rocksdb_options_set_soft_pending_compaction_bytes_limit(opts, C.size_t(o.SoftPendingCompactionBytesLimit))
	C.rocksdb_options_set_hard_pending_compaction_bytes_limit(opts, C.size_t(o.HardPendingCompactionBytesLimit))
	byString = append(byString, "delayed_write_rate="+strconv.FormatUint(o.DelayedWriteRate, 10))
	C.rocksdb_options_set_max_background_jobs(opts, C.int(o.MaxBackgroundJobs))
	C.rocksdb_options_set_max_background_compactions(opts, C.int(o.MaxBackgroundCompactions))
	C.rocksdb_options_set_max_background_flushes(opts, C.int(o.MaxBackgroundFlushes))
	C.rocksdb_options_set_max_subcompactions(opts, C.uint32_t(o.Subcompactions))

	// Compression.
	if err := setCompression(opts, o); err != nil {
		return err
	}

	// The table factory: block-based, plain or cuckoo.
	switch {
	case o.UsePlainTable:
		if rep.kind != "prefix_hash" && rep.kind != "hash_linkedlist" {
			fmt.Fprintf(warn, "Warning: plain table is used with %s\n", rep.factoryName())
		}
		C.gdb_set_plain_table(opts, C.uint32_t(o.KeySize), C.int(o.BloomBits))
	case o.UseCuckooTable:
		if o.CuckooHashRatio > 1 || o.CuckooHashRatio < 0 {
			return fmt.Errorf("Invalid cuckoo_hash_ratio")
		}
		if !o.MmapRead {
			return fmt.Errorf("cuckoo table format requires mmap read to operate")
		}
		C.gdb_set_cuckoo_table(opts, C.double(o.CuckooHashRatio), C.int(btoi(o.IdentityAsFirstHash)))
	default:
		if err := c.setTableFactory(o, warn); err != nil {
			return err
		}
	}
	C.rocksdb_options_set_max_open_files(opts, C.int(o.OpenFiles))
	C.rocksdb_options_set_table_cache_numshardbits(opts, C.int(o.TableCacheNumShardBits))
	C.rocksdb_options_set_optimize_filters_for_hits(opts, C.int(btoi(o.OptimizeFiltersForHits)))

	// I/O.
	C.rocksdb_options_set_use_direct_reads(opts, boolByte(o.UseDirectReads))
	C.rocksdb_options_set_use_direct_io_for_flush_and_compaction(opts, boolByte(o.UseDirectIOForFlushAndCompaction))
	C.rocksdb_options_set_allow_mmap_reads(opts, boolByte(o.MmapRead))
	C.rocksdb_options_set_allow_mmap_writes(opts, boolByte(o.MmapWrite))
	C.rocksdb_options_set_bytes_per_sync(opts, C.uint64_t(o.BytesPerSync))
	C.rocksdb_options_set_wal_bytes_per_sync(opts, C.uint64_t(o.WALBytesPerSync))
	C.rocksdb_options_set_use_fsync(opts, C.int(btoi(o.UseFsync)))
	C.rocksdb_options_compaction_readahead_size(opts, C.size_t(o.CompactionReadaheadSize))
	C.rocksdb_options_set_wal_recovery_mode(opts, C.int(o.WALRecoveryMode))
	if o.WALDir != "" {
		s := cString(o.WALDir)
		C.rocksdb_options_set_wal_dir(opts, s)
		cFree(unsafe.Pointer(s))
	}
	C.rocksdb_options_set_max_total_wal_size(opts, C.uint64_t(o.MaxTotalWALSize))
	C.rocksdb_options_set_paranoid_checks(opts, boolByte(o.ParanoidChecks))

	// db_bench flags with no Options field whose defaults differ from
	// RocksDB's: --dump_malloc_stats=true and the FIFO compaction options
	// (--fifo_compaction_allow_compaction=true, max table files size 0).
	C.rocksdb_options_set_dump_malloc_stats(opts, 1)
	byString = append(byString, "compaction_options_fifo={allow_compaction=true;max_table_files_size=0}")
	C.rocksdb_options_set_advise_random_on_open(opts, boolByte(o.AdviseRandomOnOpen))

	if err := c.applyString(strings.Join(byString, ";")); err != nil {
		return fmt.Errorf("rocksdb options %q: %w", strings.Join(byString, ";"), err)
	}
	// Options with no field (from an OPTIONS file, or flags set by name:
	// options.Spec.Extra) last, so they override the settings above as
	// db_bench's flags do.
	c.applyExtra(o.Extra, warn)
	return nil
}

// applyExtra sets options by name: "name" as a DB or column family
// option, "struct.field" as one field of a struct-valued option (fields of
// one struct together, e.g. compaction_options_universal={size_ratio=3;}),
// and "block_based_table_factory.name" on the block-based table options.
// The ones RocksDB rejects are reported, by their Extra key.
func (c *config) applyExtra(extra map[string]string, warn io.Writer) {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the fields of one struct are now adjacent
	var rejected []string
	for i := 0; i < len(keys); {
		k := keys[i]
		var err error
		j := i + 1
		if set, ok := extraSetters[k]; ok {
			err = set(c.opts, extra[k])
		} else if name, _, isField := strings.Cut(k, "."); !isField {
			err = c.applyString(k + "=" + extra[k])
		} else {
			fields := []string{strings.TrimPrefix(k, name+".") + "=" + extra[k]}
			for ; j < len(keys) && strings.HasPrefix(keys[j], name+"."); j++ {
				fields = append(fields, strings.TrimPrefix(keys[j], name+".")+"="+extra[keys[j]])
			}
			if body := strings.Join(fields, ";"); name == "block_based_table_factory" {
				err = c.applyTableString(body)
			} else {
				err = c.applyString(name + "={" + body + "}")
			}
		}
		if err != nil {
			rejected = append(rejected, keys[i:j]...)
		}
		i = j
	}
	for _, k := range rejected {
		fmt.Fprintf(warn, "WARNING: engine rocksdb ignores option %s\n", k)
	}
}

// extraSetters set the options RocksDB 7.8.3's option-string parser
// accepts but does not apply, through the C API.
var extraSetters = map[string]func(opts *C.rocksdb_options_t, v string) error{
	// Parsed as the deprecated DB option of that name; the column family's
	// threshold, the one in use, stays 0.
	"experimental_mempurge_threshold": func(opts *C.rocksdb_options_t, v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return err
		}
		C.rocksdb_options_set_experimental_mempurge_threshold(opts, C.double(f))
		return nil
	},
}

// applyTableString applies "name=value;..." to the block-based table
// options.
func (c *config) applyTableString(s string) error {
	cs := cString(s)
	defer cFree(unsafe.Pointer(cs))
	return cError(C.gdb_table_options_from_string(c.opts, cs))
}

// memtable describes the --memtablerep choice.
type memtable struct {
	kind  string // skip_list, vector, prefix_hash, hash_linkedlist
	param int    // lookahead, reserve count or bucket count
}

// factoryName is the name RocksDB gives the memtable factory.
func (m memtable) factoryName() string {
	switch m.kind {
	case "vector":
		return "VectorRepFactory"
	case "prefix_hash":
		return "HashSkipListRepFactory"
	case "hash_linkedlist":
		return "HashLinkListRepFactory"
	}
	return "SkipListFactory"
}

// memtableRep resolves o.Memtablerep as db_bench 7.8.3 does, with its error
// messages for names RocksDB cannot build.
func memtableRep(o *options.Options) (memtable, error) {
	name := o.Memtablerep
	if name == "" {
		return memtable{}, fmt.Errorf("NotFound: Missing configurable object: memtable_factory")
	}
	base, arg, hasArg := strings.Cut(name, ":")
	param := 0
	if hasArg {
		n, err := strconv.Atoi(arg)
		if err != nil || n < 0 {
			return memtable{}, fmt.Errorf("Could not create memtable factory: Invalid argument: bad parameter in %q", name)
		}
		param = n
	}
	var m memtable
	switch strings.ToLower(base) {
	case "skip_list", "skiplist", "skiplistfactory":
		m = memtable{"skip_list", param}
		if !hasArg && o.SkipListLookahead > 0 {
			m.param = o.SkipListLookahead
		}
	case "vector", "vectorrepfactory":
		m = memtable{"vector", param}
	case "prefix_hash", "hashskiplistrepfactory":
		m = memtable{"prefix_hash", int(o.HashBucketCount)}
	case "hash_linkedlist", "hashlinklistrepfactory":
		m = memtable{"hash_linkedlist", int(o.HashBucketCount)}
	case "cuckoo":
		return memtable{}, fmt.Errorf("Could not create memtable factory: Invalid argument: cuckoo hash memtable is not supported anymore.: %s", name)
	default:
		return memtable{}, fmt.Errorf("Could not create memtable factory: Not implemented: Could not load MemTableRepFactory: %s", name)
	}
	if (m.kind == "prefix_hash" || m.kind == "hash_linkedlist") && hasArg && param > 0 {
		m.param = param
	}
	if (m.kind == "prefix_hash" || m.kind == "hash_linkedlist") && o.PrefixSize <= 0 {
		return memtable{}, fmt.Errorf("prefix_size should be non-zero if PrefixHash or HashLinkedList memtablerep is used")
	}
	return m, nil
}

// setCompression applies compression_type, compression_level,
// compression_max_dict_bytes and the per-level list (CompressionPerLevel, or
// min_level_to_compress as db_bench expands it).
func setCompression(opts *C.rocksdb_options_t, o *options.Options) error {
	code, err := compressionCode(o.CompressionType)
	if err != nil {
		return err
	}
	C.rocksdb_options_set_compression(opts, code)
	// window_bits -14 and strategy 0 are CompressionOptions' defaults.
	C.rocksdb_options_set_compression_options(opts, -14, C.int(o.CompressionLevel), 0, C.int(o.CompressionMaxDictBytes))
	if len(o.CompressionPerLevel) == 0 && o.MinLevelToCompress < 0 {
		return nil
	}
	n := o.NumLevels
	if len(o.CompressionPerLevel) > 0 {
		n = len(o.CompressionPerLevel)
	}
	if n <= 0 {
		return nil
	}
	levels := make([]C.int, n)
	for i := range levels {
		c, err := compressionCode(o.LevelCompression(i))
		if err != nil {
			return err
		}
		levels[i] = c
	}
	C.rocksdb_options_set_compression_per_level(opts, &levels[0], C.size_t(n))
	return nil
}

// setTableFactory builds the block-based table options.
func (c *config) setTableFactory(o *options.Options, warn io.Writer) error {
	if o.Explicit["use_hash_search"] && o.PrefixSize == 0 {
		return fmt.Errorf("prefix_size not assigned when enable use_hash_search ")
	}
	if o.CacheHighPriPoolRatio+o.CacheLowPriPoolRatio > 1.0 {
		fmt.Fprintf(warn, "Sum of high_pri_pool_ratio and low_pri_pool_ratio cannot exceed 1.0.\n")
	}
	t := C.rocksdb_block_based_options_create()
	defer C.rocksdb_block_based_options_destroy(t)
	if c.cache != nil {
		C.rocksdb_block_based_options_set_block_cache(t, c.cache)
	} else {
		C.rocksdb_block_based_options_set_no_block_cache(t, 1)
	}
	C.rocksdb_block_based_options_set_block_size(t, C.size_t(o.BlockSize))
	C.rocksdb_block_based_options_set_block_restart_interval(t, C.int(o.BlockRestartInterval))
	C.rocksdb_block_based_options_set_index_block_restart_interval(t, C.int(o.IndexBlockRestartInterval))
	C.rocksdb_block_based_options_set_whole_key_filtering(t, boolByte(o.WholeKeyFiltering))
	C.rocksdb_block_based_options_set_cache_index_and_filter_blocks(t, boolByte(o.CacheIndexAndFilterBlocks))
	C.rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(t, boolByte(o.PinL0FilterAndIndexBlocksInCache))
	C.rocksdb_block_based_options_set_format_version(t, C.int(o.FormatVersion))
	if o.ChecksumType < 0 || o.ChecksumType > 4 {
		return fmt.Errorf("unknown checksum_type %d", o.ChecksumType)
	}
	C.rocksdb_block_based_options_set_checksum(t, C.char(o.ChecksumType))
	// db_bench's --pin_top_level_index_and_filter default (false) differs
	// from BlockBasedTableOptions' (true).
	C.rocksdb_block_based_options_set_pin_top_level_index_and_filter(t, 0)
	C.rocksdb_options_set_block_based_table_factory(c.opts, t)
	// The bloom filter is installed on the C++ side so it is the very policy
	// db_bench builds (NewBloomFilterPolicy(bits, false)); the C API's
	// constructor wraps it in an extra forwarding object.
	C.gdb_table_options_adjust(c.opts, nil, C.int(o.BloomBits))
	// db_bench's --index_shortening_mode default is 2
	// (kShortenSeparatorsAndSuccessor); the C API has no setter.
	C.gdb_table_set_index_shortening(c.opts, 2)
	C.gdb_table_charge_cache(c.opts, C.int(btoi(o.ChargeCompressionDictionaryBuildingBuffer)),
		C.int(btoi(o.ChargeFilterConstruction)), C.int(btoi(o.ChargeTableReader)),
		C.int(btoi(o.ChargeFileMetadata)), C.int(btoi(o.ChargeBlobCache)))
	return nil
}

// applyString applies "name=value;..." with RocksDB's option-string parser,
// replacing c.opts with the result.
func (c *config) applyString(s string) error {
	if s == "" {
		return nil
	}
	cs := cString(s)
	defer cFree(unsafe.Pointer(cs))
	next := C.rocksdb_options_create()
	var cerr *C.char
	C.rocksdb_get_options_from_string(c.opts, cs, next, &cerr)
	if err := cError(cerr); err != nil {
		C.rocksdb_options_destroy(next)
		return err
	}
	C.rocksdb_options_destroy(c.opts)
	c.opts = next
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
