package bench

import (
	"io"

	"github.com/godbbench/godbbench/internal/gflags"
)

// Flags are memtablerep_bench's command-line flags with RocksDB 7.8.3's
// names, types and defaults, plus ToplingDB's three additions.
type Flags struct {
	Benchmarks    string
	Memtablerep   string
	NumOperations int32
	NumThreads    int32
	NumScans      int32
	ItemSize      int32
	Seed          int64
	PrefixLength  int32

	// Hash-rep and arena parameters: accepted for compatibility; the reps
	// implemented here do not use them.
	BucketCount                   int64
	HashskiplistHeight            int32
	HashskiplistBranchingFactor   int32
	HugePageTLBSize               int32
	BucketEntriesLoggingThreshold int32
	IfLogBucketDistWhenFlash      bool
	ThresholdUseSkiplist          int32
	WriteBufferSize               int64
	VectorrepCount                int64

	// ToplingDB additions. Reverse makes readseq scan backwards; the other
	// two are accepted: every rep here is zero-copy and concurrent already.
	EnableZeroCopy      bool
	Reverse             bool
	UseConcurrentInsert bool
}

// parseFlags parses args (without the program name) the way gflags does. It
// returns done=true with an exit code when the program must stop (help,
// version or a bad flag; gflags has printed the message).
func parseFlags(args []string, stdout, stderr io.Writer) (f *Flags, code int, done bool) {
	f = &Flags{}
	fs := gflags.NewFlagSet("memtablerep_bench", "")
	fs.SetOutput(stdout, stderr)
	fs.SetFile("memtable/memtablerep_bench.cc")
	fs.StringVar(&f.Benchmarks, "benchmarks", "fillrandom", "Comma-separated list of benchmarks to run. Options:\n\tfillrandom             -- write N random values\n\tfillseq                -- write N values in sequential order\n\treadrandom             -- read N values in random order\n\treadseq                -- scan the memtable num_scans times\n\treadwrite              -- 1 thread writes while N - 1 threads do random\n\t                          reads\n\tseqreadwrite           -- 1 thread writes while N - 1 threads do scans\n")
	fs.StringVar(&f.Memtablerep, "memtablerep", "skiplist", "Which implementation of memtablerep to use. See include/memtablerep.h for\n more details. Options:\n\tskiplist            -- backed by a skiplist\n\toffset_skiplist     -- offsets into one arena, one node per user key\n\tcspp                -- concurrent Patricia trie\n\tName:{json}         -- ToplingDB's form, e.g. cspp:{\"mem_cap\":\"4G\"}\n")
	fs.Int64Var(&f.BucketCount, "bucket_count", 1000000, "number of buckets for the hash table")
	fs.Int32Var(&f.HashskiplistHeight, "hashskiplist_height", 4, "skiplist height for the hash skiplist")
	fs.Int32Var(&f.HashskiplistBranchingFactor, "hashskiplist_branching_factor", 4, "branching factor for the hash skiplist")
	fs.Int32Var(&f.HugePageTLBSize, "huge_page_tlb_size", 0, "huge_page_tlb_size for hash linklist")
	fs.Int32Var(&f.BucketEntriesLoggingThreshold, "bucket_entries_logging_threshold", 4096, "bucket_entries_logging_threshold for hash linklist")
	fs.BoolVar(&f.IfLogBucketDistWhenFlash, "if_log_bucket_dist_when_flash", true, "if_log_bucket_dist_when_flash for hash linklist")
	fs.Int32Var(&f.ThresholdUseSkiplist, "threshold_use_skiplist", 256, "threshold_use_skiplist for hash linklist")
	fs.Int64Var(&f.WriteBufferSize, "write_buffer_size", 256, "write_buffer_size parameter to pass into WriteBufferManager")
	fs.Int32Var(&f.NumThreads, "num_threads", 1, "Number of concurrent threads to run. If the benchmark includes writes,\n then at most one thread will be a writer")
	fs.Int32Var(&f.NumOperations, "num_operations", 1000000, "Number of operations to do for write and random read benchmarks")
	fs.Int32Var(&f.NumScans, "num_scans", 10, "Number of times for each thread to scan the memtablerep for sequential\n read benchmarks")
	fs.Int32Var(&f.ItemSize, "item_size", 100, "Number of bytes each item should be")
	fs.Int32Var(&f.PrefixLength, "prefix_length", 8, "Prefix length to pass into NewFixedPrefixTransform")
	fs.Int64Var(&f.VectorrepCount, "vectorrep_count", 0, "Number of entries to reserve on VectorRep initialization")
	fs.Int64Var(&f.Seed, "seed", 0, "Seed base for random number generators. When 0 it is deterministic.")
	fs.BoolVar(&f.EnableZeroCopy, "enable_zero_copy", false, "read without copying (ToplingDB); always the case here")
	fs.BoolVar(&f.Reverse, "reverse", false, "readseq scans in reverse order (ToplingDB)")
	fs.BoolVar(&f.UseConcurrentInsert, "use_concurrent_insert", false, "use the concurrent insert path (ToplingDB); always the case here")
	if _, err := fs.Parse(args); err != nil {
		if e, ok := err.(*gflags.ExitError); ok {
			return nil, e.Code, true
		}
		io.WriteString(stderr, err.Error()+"\n")
		return nil, 1, true
	}
	return f, 0, false
}
