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
// every flag of the flag table (flagtable.go) bound to its field of the
// returned Flags. The usage message is gflags' default
// ("\nUSAGE:\n<argv0> [OPTIONS]..."), as the C++ tool sets it, and there
// is no --version text.
func newFlagSet(argv0 string) (*gflags.FlagSet, *Flags) {
	fs := gflags.NewFlagSet(argv0, "")
	f := &Flags{}
	fs.SetFile(sourceFile)
	for i := range flagTable {
		flagTable[i].register(fs, f)
	}
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
