// Package native registers the "native" engine: the pure-Go LSM of package
// lsm behind the engine.DB contract.
//
// Contract: Open maps options.Options onto lsm (the LSM reads most of them
// directly) and lists, through Options.Warn, every explicitly set option it
// cannot honour. Get is zero-copy (the value handed to the callback points
// into the memtable arena or the table block), batches are reusable, and
// iterators load values lazily, so KeysOnly scans never read value bytes.
// With Options.ReadOnly the DB opens read-only (lsm readonly.go): writes fail
// with RocksDB's "Not implemented: Not supported operation in read only
// mode." and no file is changed.
//
// Property answers RocksDB's property names from lsm's plain figures
// (lsm.DB.Metrics and Tables), formatted by internal/rocksfmt in RocksDB
// 7.8.3's layout (properties.go, stats.go). With Options.Statistics the
// engine keeps RocksDB's tickers and histograms and dumps stats into LOG
// every stats_dump_period_sec (statistics.go); the databases of an Opener
// made by SharingStatistics keep them together. The package links in the
// memtable reps --memtablerep can name (reps.go).
package native

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"sync"

	"github.com/godbbench/godbbench/engine"
	"github.com/godbbench/godbbench/internal/buildinfo"
	"github.com/godbbench/godbbench/internal/statistics"
	"github.com/godbbench/godbbench/lsm"
	"github.com/godbbench/godbbench/mergeop"
	"github.com/godbbench/godbbench/options"
	"github.com/godbbench/godbbench/sst"
)

// Version is the native engine's version, printed on the header line:
// godbbench's.
const Version = buildinfo.Version

func init() { engine.Register("native", Opener{}) }

// Opener opens native databases. The registered one gives each database
// statistics of its own; one made by SharingStatistics counts every
// database it opens in one (statistics.go).
type Opener struct {
	shared *statistics.Shared
}

// Info describes the engine for the db_bench header.
func (Opener) Info() engine.Info {
	return engine.Info{
		Name:        "native",
		Version:     Version,
		VersionLine: fmt.Sprintf("%-12sversion %s", "godbbench:", Version),
		// db_bench --num=1000000 --threads=8, idle 2-vCPU machine, two
		// rounds, ops/s locked -> unlocked: readrandom 209-252K ->
		// 333-424K, fillrandom (500K each) 305-369K -> 403-586K, fillseq
		// 783-806K -> 588-693K; at --threads=2 within noise but fillseq
		// (715-990K locked, 610-618K unlocked).
		ThreadLocking: engine.LockUpToProcs,
		// The heap may grow to 1.5x what is live between collections,
		// not 2x: what the engine allocates is mostly per flush and
		// compaction (memtable index rebuilds, table blocks), so the
		// collections double at little cost. db_bench's twelve default
		// benchmarks, 1M keys, 1 thread: peak RSS 128-131 MB against
		// 138-143 at 100; 71 collections against 30, 0.17 s of CPU
		// against 0.10 of the run's ~40 s (GODEBUG=gctrace=1).
		GCPercent: 50,
	}
}

// OptionNotes are the options the native engine ignores or applies
// differently from RocksDB (engine.OptionNote).
var OptionNotes = engine.Overlay(slices.Concat([]engine.OptionNote{
	{Key: "db_write_buffer_size", Ignored: true, How: "no cross-column-family memtable budget: one column family"},
	{Key: "hash_bucket_count", How: "sets the bucket count of the prefix_hash and hash_linkedlist memtables when given; unset, they keep their own defaults (1000000 and 50000)"},
	{Key: "arena_block_size", Ignored: true, How: "memtables size their own arenas"},
	{Key: "enable_pipelined_write", How: "with allow_concurrent_memtable_write, a commit group below 16 KiB hands the writer queue on after its WAL write and inserts while the next group writes; groups are published in sequence order (lsm/publish.go)"},
	{Key: "skip_list_lookahead", Ignored: true, How: "the skiplists have no lookahead"},
	{Key: "level_compaction_dynamic_level_bytes", Ignored: true, How: "level targets are static, from max_bytes_for_level_base up"},
	{Key: "compaction_pri", How: "orders the tables a level compaction tries as RocksDB does, each compaction moving one table of the level down (RocksDB's picker may widen the inputs to a clean cut); kByCompensatedSize weighs deletions at the table's mean entry size; kRoundRobin cycles through the level's tables without RocksDB's output split at the cursor (lsm/compaction_pri.go)"},
	{Key: "max_compaction_bytes", How: "caps a level compaction's output table plus the tables below it that it overlaps, as RocksDB cuts outputs, and FIFO's intra-L0 compactions; level compaction inputs are never widened, so there is no input cap there (lsm/compaction_cut.go)"},
	{Key: "soft_pending_compaction_bytes_limit", Ignored: true, How: "no slowdown on compaction debt"},
	{Key: "hard_pending_compaction_bytes_limit", Ignored: true, How: "no stop on compaction debt"},
	{Key: "delayed_write_rate", Ignored: true, How: "no write slowdown to a rate"},
	{Key: "subcompactions", Ignored: true, How: "a compaction runs on one goroutine"},
	{Key: "compression_max_dict_bytes", Ignored: true, How: "no dictionary compression"},
	{Key: "cache_type", How: "one CLOCK block cache (sst/cache.go) for every type: hyper_clock_cache as RocksDB's, lru_cache and fast_lru_cache evicting by CLOCK rather than strict recency (measured in docs/BENCHMARKS.md, block cache types)"},
	{Key: "cache_numshardbits", How: "applied to the block cache, but shards are kept at 256 KiB or more, and -1 picks one shard per 1 MiB (RocksDB: per 512 KiB), at most 64"},
	{Key: "cache_index_and_filter_blocks", How: "the index and filter partitions of partitioned tables go through the block cache, charged and evicted like data blocks, the top levels staying in the table readers (as RocksDB's with pin_top_level_index_and_filter); a whole index and filter stay decoded in table readers"},
	{Key: "pin_l0_filter_and_index_blocks_in_cache", How: "with cache_index_and_filter_blocks, a partitioned table in level 0 when its reader opens, and no larger than 1.5 write buffers, keeps its index and filter partitions in the reader, loaded once and not charged to the cache (RocksDB pins them in the cache, charged); other tables' partitions go through the block cache (lsm/pinl0.go)"},
	{Key: "index_block_restart_interval", Ignored: true, How: "the index block format is fixed"},
	{Key: "format_version", How: "0 with checksum_type 1 writes native table format 1 (no checksum type in the footer, like RocksDB's legacy footer); 1-5, and 0 with another checksum, write format 2 (3 with a partitioned index): RocksDB's index and filter encodings of 2-5 do not apply"},
	{Key: "table_cache_numshardbits", Ignored: true, How: "the table cache is one LRU list, holding at most max_open_files - 10 unpinned readers open"},
	{Key: "prefix_size", How: "a fixed prefix extractor as RocksDB's: prefix bloom filters in tables of either format and in memtables, prefix seeks, prefix_hash and hash_linkedlist buckets; each table records its filter's prefix length instead of an OPTIONS file recording the extractor"},
	{Key: "bloom_bits", How: "applied; below 0 (the default, the table default) L0 tables still get a 10-bit whole-key bloom filter and deeper levels none, which lets a Get skip an L0 table that cannot hold its key; 0 writes no filter (lsm/l0filter.go)"},
	{Key: "memtable_bloom_size_ratio", How: "applied; at 0 (the default) and without prefix_size, each memtable still keeps a whole-key bloom filter of 1% of write_buffer_size, which lets a Get skip a memtable that cannot hold its key (lsm/memtable_keyfilter.go)"},
	{Key: "mmap_write", How: "the WAL is always written through a shared mapping where the file system can preallocate (no system call per commit; the same guarantee as write(2)); tables are written with write(2)"},
	{Key: "max_total_wal_size", Ignored: true, How: "WALs are freed when their memtable flushes"},
	{Key: "paranoid_checks", Ignored: true, How: "checks are always on"},
	{Key: "advise_random_on_open", Ignored: true, How: "no fadvise hints"},
	{Key: "compaction_style", How: "leveled, universal (1) and FIFO (2) as RocksDB picks them; 3 (none) opens as leveled, with a warning"},
	{Key: "compression_type", How: "snappy, zstd, lz4 and none; lz4hc becomes lz4, zlib, bzip2 and xpress become zstd, with a warning"},
	{Key: "blob_compression_type", How: "snappy, zstd, lz4 and none, as compression_type; a value compressing by less than 1/8 is stored raw"},
	{Key: "blob_garbage_collection_force_threshold", Ignored: true, How: "no forced compactions for blob garbage: garbage collection happens in compactions picked for the LSM's shape"},
	{Key: "blob_compaction_readahead_size", Ignored: true, How: "blob files are read with pread, without a readahead knob"},
}, engine.RateLimiterAndRowCacheNotes, engine.ReadOptionNotes,
	engine.ByNameNotes("a RocksDB feature the native engine does not have",
		"memtable_whole_key_filtering",
		// lsm's universal and FIFO pickers read these (lsm/compaction_style.go).
		"universal_size_ratio", "universal_min_merge_width", "universal_max_merge_width",
		"universal_max_size_amplification_percent",
		"fifo_compaction_max_table_files_size_mb", "fifo_compaction_allow_compaction",
		"stats_dump_period_sec", "enable_blob_files", "min_blob_size", "blob_file_size", "blob_compression_type",
		"blob_file_starting_level", "enable_blob_garbage_collection", "blob_garbage_collection_age_cutoff",
		"blob_garbage_collection_force_threshold", "blob_compaction_readahead_size",
		// lsm reads these for the block format's index and filter
		// (lsm/tableoptions.go): compression, partitioning.
		"enable_index_compression", "partition_index", "partition_index_and_filters", "metadata_block_size"),
	engine.RocksDBFeatureNotes("hash_bucket_count", "report_file_operations", "num_column_families", "num_hot_column_families")), ownNotes)

// unsupported lists the options the native engine ignores.
var unsupported = engine.IgnoredKeys(OptionNotes)

// compressionFallback maps codecs the table format lacks to the nearest one.
var compressionFallback = map[string]string{
	"lz4hc": "lz4", "zlib": "zstd", "bzip2": "zstd", "xpress": "zstd", "": "none", "no": "none",
}

// mapOptions returns a copy of o the LSM can open, warning about what it
// changes or ignores.
func mapOptions(o *options.Options, warn io.Writer) *options.Options {
	c := *o
	o.Warn(warn, "native", unsupported...)
	if o.CompactionStyle > 2 && o.Explicit["compaction_style"] {
		fmt.Fprintf(warn, "WARNING: engine native does leveled, universal and FIFO compaction; ignoring compaction_style %d\n", o.CompactionStyle)
	}
	sayFix := o.CompressionChosen()
	fix := func(name string) string {
		if _, err := sst.ParseCompression(name); err == nil {
			return name
		}
		to, ok := compressionFallback[name]
		if !ok {
			to = "snappy"
		}
		if sayFix {
			fmt.Fprintf(warn, "WARNING: engine native does not support compression %s; using %s\n", name, to)
		}
		return to
	}
	// The WAL goes through a shared mapping whatever the flag says: a
	// store to it is in the page cache at once, as after write(2), without
	// the system call per commit (docs/BENCHMARKS.md, "mapped WAL").
	c.MmapWrite = true
	c.CompressionType = fix(o.CompressionType)
	if name, ok := o.Extra["blob_compression_type"]; ok {
		if dbName, err := options.CompressionFromRocksDB(name); err == nil {
			name = dbName
		}
		c.Extra = maps.Clone(o.Extra)
		c.Extra["blob_compression_type"] = fix(name)
	}
	if o.Explicit["hash_bucket_count"] && (o.Memtablerep == "prefix_hash" || o.Memtablerep == "hash_linkedlist") {
		c.Memtablerep = o.Memtablerep + ":" + strconv.FormatInt(o.HashBucketCount, 10)
	}
	if len(o.CompressionPerLevel) > 0 {
		c.CompressionPerLevel = make([]string, len(o.CompressionPerLevel))
		for i, n := range o.CompressionPerLevel {
			c.CompressionPerLevel[i] = fix(n)
		}
	}
	return &c
}

// Open opens (creating if missing) the database in dir.
func (opener Opener) Open(dir string, o *options.Options, warn io.Writer) (engine.DB, error) {
	if o == nil {
		o = options.Default()
	}
	if warn == nil {
		warn = io.Discard
	}
	if err := engine.RefusedOption(o, "native", OptionNotes); err != nil {
		return nil, err
	}
	if o.MmapWrite && o.UseDirectIOForFlushAndCompaction {
		// Checked here: mapOptions maps the WAL whatever --mmap_write says.
		return nil, lsm.ErrMmapWritesAndDirectIO
	}
	op, err := mergeop.Lookup(o.MergeOperator)
	if err != nil {
		return nil, fmt.Errorf("invalid merge operator[%s]: %w", o.MergeOperator, err)
	}
	// The LOG's version line reads "native-0.1.0", so that
	// tools/benchmark.sh's version column tells the engines apart. The DB
	// is its process's only one, so a manual compaction (db_bench's
	// compact) hands its memory back at once (lsm/idlememory.go).
	period, err := statsDumpPeriod(o)
	if err != nil {
		return nil, err
	}
	stats := opener.shared.Open(o.Statistics, o.StatsLevel)
	d, err := lsm.Open(dir, mapOptions(o, warn), lsm.Config{Version: "native-" + Version, MergeOperator: op, Statistics: stats, FileOperations: fileCounts(o),
		ColumnFamilies: familyNames(o), ReleaseMemoryAfterCompact: true})
	if err != nil {
		return nil, err
	}
	db := &DB{d: d, sync: o.Sync, noWAL: o.DisableWAL, merges: op != nil, stats: stats, rec: stats.Recorder(), read: o.Read}
	if err := db.openFamilies(o); err != nil {
		d.Close()
		return nil, err
	}
	if !o.ReadOnly {
		// A read-only open changes no file, LOG included.
		db.startStatsDumper(dir, period)
	}
	return db, nil
}

// Destroy deletes the database in dir and its WAL files: only the files
// the native engine names, after taking its LOCK (lsm.Destroy).
func (Opener) Destroy(dir string, o *options.Options) error { return lsm.Destroy(dir, o) }

// DB adapts *lsm.DB to engine.DB.
type DB struct {
	d             *lsm.DB
	sync, noWAL   bool // database-wide --sync / --disable_wal
	merges        bool // opened with a merge operator
	statsBaseline statsBaseline
	// stats are the statistics of --statistics, nil without; rec is stats
	// when its level records anything, else nil (statistics.go).
	stats, rec *statistics.Statistics
	dumper     *statsDumper // nil: no periodic dumps to LOG
	// read are db_bench's read options; the prefix ones reach lsm's
	// iterators.
	read options.ReadOptions
	// families are the column families of --num_column_families > 1,
	// nil without (columnfamilies.go).
	families *engine.FamilySlots[family]
}

// iterOptions are lsm's options for an iterator made with o (nil: none).
func (db *DB) iterOptions(o *engine.IterOptions) lsm.IterOptions {
	lo := lsm.IterOptions{
		PrefixSameAsStart: db.read.PrefixSameAsStart,
		TotalOrderSeek:    db.read.TotalOrderSeek,
		AutoPrefix:        db.read.AutoPrefixMode,
	}
	if o != nil {
		lo.LowerBound, lo.UpperBound, lo.KeysOnly = o.LowerBound, o.UpperBound, o.KeysOnly
	}
	return lo
}

// LSM returns the underlying database.
func (db *DB) LSM() *lsm.DB { return db.d }

var batchPool = sync.Pool{New: func() any { return lsm.NewBatch() }}

func (db *DB) writeOptions(wo *engine.WriteOptions) lsm.WriteOptions {
	w := lsm.WriteOptions{Sync: db.sync, DisableWAL: db.noWAL}
	if wo != nil {
		w.Sync = w.Sync || wo.Sync
		w.DisableWAL = w.DisableWAL || wo.DisableWAL
	}
	return w
}

// Put writes one key through a pooled batch (no allocation).
func (db *DB) Put(key, value []byte, wo *engine.WriteOptions) error {
	b := batchPool.Get().(*lsm.Batch)
	b.Reset()
	b.Put(key, value)
	err := db.write(b, wo)
	batchPool.Put(b)
	return err
}

// Delete writes a tombstone.
func (db *DB) Delete(key []byte, wo *engine.WriteOptions) error {
	b := batchPool.Get().(*lsm.Batch)
	b.Reset()
	b.Delete(key)
	err := db.write(b, wo)
	batchPool.Put(b)
	return err
}

// SingleDelete writes a Delete: package lsm has no single-delete kind,
// and a Delete leaves the same contents whenever SingleDelete's
// precondition (one Put since the last delete) holds.
func (db *DB) SingleDelete(key []byte, wo *engine.WriteOptions) error {
	return db.Delete(key, wo)
}

// batch is a reusable engine.Batch. merges counts the merge operands
// added since the last Reset: package lsm takes them without a merge
// operator (reads then fail), where RocksDB refuses the write, as Apply
// does.
type batch struct {
	*lsm.Batch
	merges int
	db     *DB // whose families PutCF and DeleteCF name
}

// DeleteRange writes a range tombstone for [start, end) through a pooled
// batch.
func (db *DB) DeleteRange(start, end []byte, wo *engine.WriteOptions) error {
	b := batchPool.Get().(*lsm.Batch)
	b.Reset()
	b.DeleteRange(start, end)
	err := db.write(b, wo)
	batchPool.Put(b)
	return err
}

// Merge adds a merge operand.
func (b *batch) Merge(key, value []byte) {
	b.Batch.Merge(key, value)
	b.merges++
}

// Reset empties the batch.
func (b *batch) Reset() {
	b.Batch.Reset()
	b.merges = 0
}

func (*batch) Close() {}

// NewBatch returns an empty reusable batch.
func (db *DB) NewBatch() engine.Batch { return &batch{Batch: lsm.NewBatch(), db: db} }

// Apply commits a batch made by NewBatch.
func (db *DB) Apply(b engine.Batch, wo *engine.WriteOptions) error {
	nb, ok := b.(*batch)
	if !ok {
		return fmt.Errorf("native: Apply got a %T, not a batch from this engine", b)
	}
	if nb.merges > 0 && !db.merges {
		return engine.ErrBatchMergeNoOperator
	}
	return db.write(nb.Batch, wo)
}

// write commits b, timed when statistics record.
func (db *DB) write(b *lsm.Batch, wo *engine.WriteOptions) error {
	if db.rec != nil {
		return db.timedWrite(b, db.writeOptions(wo))
	}
	return db.d.Write(b, db.writeOptions(wo))
}

// Merge writes a merge operand (lsm merge.go); without a merge operator
// it fails with RocksDB's words, engine.ErrNoMergeOperator's.
func (db *DB) Merge(key, value []byte, wo *engine.WriteOptions) error {
	if db.rec != nil {
		return db.timedMerge(key, value, db.writeOptions(wo))
	}
	return db.d.Merge(key, value, db.writeOptions(wo))
}

// GetMergeOperands lists key's operands, oldest first, after the value
// they apply to (lsm.DB.GetMergeOperands), through a pooled adapter so
// that the call allocates nothing.
func (db *DB) GetMergeOperands(key []byte, fn func(operand []byte)) (bool, error) {
	a := operandAdapters.Get().(*operandAdapter)
	a.fn = fn
	found, err := db.d.GetMergeOperands(key, a.each)
	a.fn = nil
	operandAdapters.Put(a)
	return found, err
}

// operandAdapter hands lsm's operand list to an engine callback one
// operand at a time; each is bound once, when the adapter is made.
type operandAdapter struct {
	fn   func(operand []byte)
	each func(operands [][]byte)
}

var operandAdapters = sync.Pool{New: func() any {
	a := &operandAdapter{}
	a.each = a.call
	return a
}}

func (a *operandAdapter) call(operands [][]byte) {
	for _, op := range operands {
		a.fn(op)
	}
}

// Get is zero-copy: fn sees the value where it lives.
func (db *DB) Get(key []byte, fn func(value []byte)) (bool, error) {
	if db.rec != nil {
		return db.countedGet(key, fn)
	}
	return db.d.Get(key, fn)
}

// NewIter returns a lazy-value iterator.
func (db *DB) NewIter(o *engine.IterOptions) (engine.Iterator, error) {
	var it engine.Iterator
	switch {
	case o != nil && o.Tailing:
		// lsm's iterators are point-in-time views.
		lo := db.iterOptions(o.ViewOptions())
		it = engine.NewTailingIter(func() (engine.Iterator, error) { return db.d.NewIter(&lo) })
	default:
		lo := db.iterOptions(o)
		li, err := db.d.NewIter(&lo)
		if err != nil {
			return nil, err
		}
		it = li
	}
	if db.rec != nil {
		return engine.NewCountedIter(db.rec, it), nil
	}
	return it, nil
}

// Flush writes the memtables to L0 and waits.
func (db *DB) Flush() error { return db.d.Flush() }

// Compact compacts [start, end] into targetLevel (-1: the bottom).
func (db *DB) Compact(start, end []byte, targetLevel int) error {
	return db.d.Compact(start, end, targetLevel)
}

// WaitForCompactions waits until no background work is pending.
func (db *DB) WaitForCompactions() error { return db.d.WaitForCompactions() }

// Close closes the database.
func (db *DB) Close() error {
	db.stopStatsDumper()
	return db.d.Close()
}

// Checkpoint is engine.Checkpointer: lsm's Checkpoint, a flush then hard
// links of the live tables and a MANIFEST of their version.
func (db *DB) Checkpoint(dir string) error { return db.d.Checkpoint(dir) }
