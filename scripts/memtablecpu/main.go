// Command memtablecpu runs memtablerep_bench with the process's CPU time
// (user+system, every thread, collector included) as the clock, so that each
// benchmark's "Elapsed time" and us/op are CPU time and can be compared on a
// loaded machine, where wall time is mostly waiting for a core. Flags,
// defaults, errors and output are memtablerep_bench's; only the clock differs.
//
//	go run ./scripts/memtablecpu --memtablerep=offset_skiplist \
//	    --num_operations=1000000 --item_size=0 --benchmarks=fillrandom,readrandom
package main

import (
	"os"
	"syscall"

	_ "github.com/godbbench/godbbench/memtable/badgerskl"
	_ "github.com/godbbench/godbbench/memtable/cspp"
	_ "github.com/godbbench/godbbench/memtable/hashrep"
	_ "github.com/godbbench/godbbench/memtable/offsetskiplist"
	_ "github.com/godbbench/godbbench/memtable/skiplist"
	_ "github.com/godbbench/godbbench/memtable/vector"
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
	os.Exit(memtablerepbench.MainClock(os.Args[1:], processCPU, os.Stdout, os.Stderr))
}
