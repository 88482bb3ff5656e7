// Command memtablecpu runs memtablerep_bench's benchmarks with the process's
// CPU time (user+system, every thread, collector included) as the clock, so
// that each benchmark's "Elapsed time" and us/op are CPU time and can be
// compared on a loaded machine, where wall time is mostly waiting for a core.
// The output is memtablerep_bench's; only the clock differs.
//
//	go run ./scripts/memtablecpu --memtablerep=offset_skiplist \
//	    --num_operations=1000000 --item_size=0 --benchmarks=fillrandom,readrandom
//
// Flags not listed here keep memtablerep_bench's defaults.
package main

import (
	"flag"
	"os"
	"syscall"

	_ "github.com/godbbench/godbbench/memtable/badgerskl"
	_ "github.com/godbbench/godbbench/memtable/cspp"
	_ "github.com/godbbench/godbbench/memtable/offsetskiplist"
	_ "github.com/godbbench/godbbench/memtable/skiplist"
	"github.com/godbbench/godbbench/memtablerepbench"
)

// processCPU is the process's user+system CPU time in nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func main() {
	f := &memtablerepbench.Flags{
		BucketCount: 1000000, HashskiplistHeight: 4, HashskiplistBranchingFactor: 4,
		BucketEntriesLoggingThreshold: 4096, IfLogBucketDistWhenFlash: true,
		ThresholdUseSkiplist: 256, WriteBufferSize: 256, PrefixLength: 8,
	}
	flag.StringVar(&f.Benchmarks, "benchmarks", "fillrandom", "comma-separated benchmarks")
	flag.StringVar(&f.Memtablerep, "memtablerep", "skiplist", "memtable rep")
	numThreads := flag.Int("num_threads", 1, "concurrent threads")
	numOperations := flag.Int("num_operations", 1000000, "operations")
	numScans := flag.Int("num_scans", 10, "full scans per thread")
	itemSize := flag.Int("item_size", 100, "value bytes")
	flag.Parse()
	f.NumThreads, f.NumOperations = int32(*numThreads), int32(*numOperations)
	f.NumScans, f.ItemSize = int32(*numScans), int32(*itemSize)
	os.Exit(memtablerepbench.Run(f, processCPU, os.Stdout, os.Stderr))
}
