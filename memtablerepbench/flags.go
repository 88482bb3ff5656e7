package memtablerepbench

import (
	"io"

	"github.com/godbbench/godbbench/internal/gflags"
)

// sourceFile is the file --help lists the RocksDB flags under (gflags groups
// flags by the file that defines them), spelled as in the Debian 7.8.3 build.
const sourceFile = "./memtable/memtablerep_bench.cc"

// Flags are memtablerep_bench's command-line flags: RocksDB 7.8.3's names,
// types and defaults (memtable/memtablerep_bench.cc), plus ToplingDB's three
// additions.
type Flags struct {
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

	// ToplingDB additions. Reverse makes readseq scan backwards; the other
	// two are accepted: every rep here is zero-copy and concurrent already.
	EnableZeroCopy      bool // --enable_zero_copy
	Reverse             bool // --reverse
	UseConcurrentInsert bool // --use_concurrent_insert
}

// newFlagSet returns a FlagSet for memtablerep_bench invoked as argv0 with
// every flag bound to a field of the returned Flags. The usage message is
// gflags' default ("\nUSAGE:\n<argv0> [OPTIONS]..."), as the C++ tool sets
// it, and there is no --version text.
func newFlagSet(argv0 string) (*gflags.FlagSet, *Flags) {
	fs := gflags.NewFlagSet(argv0, "")
	f := &Flags{}
	fs.SetFile(sourceFile)
	fs.StringVar(&f.Benchmarks, "benchmarks", "fillrandom", "Comma-separated benchmarks: fillrandom, fillseq, readrandom, readseq, readwrite, seqreadwrite")
	fs.StringVar(&f.Memtablerep, "memtablerep", "skiplist", repHelp())
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
	fs.BoolVar(&f.EnableZeroCopy, "enable_zero_copy", false, "read without copying (ToplingDB); always the case here")
	fs.BoolVar(&f.Reverse, "reverse", false, "readseq scans in reverse order (ToplingDB)")
	fs.BoolVar(&f.UseConcurrentInsert, "use_concurrent_insert", false, "use the concurrent insert path (ToplingDB); always the case here")
	return fs, f
}

// parseFlags parses args (without the program name) the way gflags does. It
// returns done=true with an exit code when the program must stop (help,
// version or a bad flag; gflags has printed the message).
func parseFlags(args []string, stdout, stderr io.Writer) (f *Flags, code int, done bool) {
	fs, f := newFlagSet("memtablerep_bench")
	fs.SetOutput(stdout, stderr)
	if _, err := fs.Parse(args); err != nil {
		if e, ok := err.(*gflags.ExitError); ok {
			return nil, e.Code, true
		}
		io.WriteString(stderr, err.Error()+"\n")
		return nil, 1, true
	}
	return f, 0, false
}
