package flags

import "github.com/godbbench/godbbench/internal/gflags"

// MemtablerepFlags holds the flags of memtablerep_bench (RocksDB 7.8.3
// memtable/memtablerep_bench.cc) with the same types and defaults.
type MemtablerepFlags struct {
	Benchmarks                    string // --benchmarks
	Memtablerep                   string // --memtablerep
	BucketCount                   int64  // --bucket_count
	HashskiplistHeight            int32  // --hashskiplist_height
	HashskiplistBranchingFactor   int32  // --hashskiplist_branching_factor
	HugePageTlbSize               int32  // --huge_page_tlb_size
	BucketEntriesLoggingThreshold int32  // --bucket_entries_logging_threshold
	IfLogBucketDistWhenFlash      bool   // --if_log_bucket_dist_when_flash
	ThresholdUseSkiplist          int32  // --threshold_use_skiplist
	WriteBufferSize               int64  // --write_buffer_size
	NumThreads                    int32  // --num_threads
	NumOperations                 int32  // --num_operations
	NumScans                      int32  // --num_scans
	ItemSize                      int32  // --item_size
	PrefixLength                  int32  // --prefix_length
	VectorrepCount                int64  // --vectorrep_count
	Seed                          int64  // --seed
}

// RegisterMemtablerepBench defines memtablerep_bench's flags on fs.
func RegisterMemtablerepBench(fs *gflags.FlagSet) *MemtablerepFlags {
	f := &MemtablerepFlags{}
	fs.SetFile(MemtablerepFile)
	fs.StringVar(&f.Benchmarks, "benchmarks", "fillrandom", "Comma-separated benchmarks: fillrandom, fillseq, readrandom, readseq, readwrite, seqreadwrite")
	fs.StringVar(&f.Memtablerep, "memtablerep", "skiplist", "Memtable implementation: skiplist, vector, hashskiplist, hashlinklist, or a registered factory name")
	fs.Int64Var(&f.BucketCount, "bucket_count", 1000000, "Buckets of the hash memtables")
	fs.Int32Var(&f.HashskiplistHeight, "hashskiplist_height", 4, "Skip list height inside each hash skip list bucket")
	fs.Int32Var(&f.HashskiplistBranchingFactor, "hashskiplist_branching_factor", 4, "Skip list branching factor inside each hash skip list bucket")
	fs.Int32Var(&f.HugePageTlbSize, "huge_page_tlb_size", 0, "Huge page size for the hash linked list arena; 0 disables huge pages")
	fs.Int32Var(&f.BucketEntriesLoggingThreshold, "bucket_entries_logging_threshold", 4096, "Hash linked list: log buckets holding more entries than this")
	fs.BoolVar(&f.IfLogBucketDistWhenFlash, "if_log_bucket_dist_when_flash", true, "Hash linked list: log the bucket size distribution at flush")
	fs.Int32Var(&f.ThresholdUseSkiplist, "threshold_use_skiplist", 256, "Hash linked list: bucket entries before a bucket becomes a skip list")
	fs.Int64Var(&f.WriteBufferSize, "write_buffer_size", 256, "Size given to the write buffer manager (not used by the benchmarks)")
	fs.Int32Var(&f.NumThreads, "num_threads", 1, "Concurrent threads; in mixed benchmarks one of them writes")
	fs.Int32Var(&f.NumOperations, "num_operations", 1000000, "Operations of the write and random read benchmarks")
	fs.Int32Var(&f.NumScans, "num_scans", 10, "Full scans per thread in the sequential read benchmarks")
	fs.Int32Var(&f.ItemSize, "item_size", 100, "Value bytes per entry")
	fs.Int32Var(&f.PrefixLength, "prefix_length", 8, "Fixed prefix length given to the hash memtables")
	fs.Int64Var(&f.VectorrepCount, "vectorrep_count", 0, "Entries reserved up front by the vector memtable")
	fs.Int64Var(&f.Seed, "seed", 0, "Seed of the random generators; 0 is a fixed seed, not the clock")
	return f
}

// NewMemtablerepFlagSet returns a FlagSet for memtablerep_bench invoked as
// argv0, with its flags registered.
func NewMemtablerepFlagSet(argv0 string) (*gflags.FlagSet, *MemtablerepFlags) {
	fs := gflags.NewFlagSet(argv0, "") // usage "\nUSAGE:\n<argv0> [OPTIONS]...", as the C++ tool sets
	return fs, RegisterMemtablerepBench(fs)
}
