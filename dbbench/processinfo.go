package dbbench

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/godbbench/godbbench/internal/buildinfo"
)

// buildInfoText is what --build_info prints before exiting 0, in the shape
// of db_bench's GetRocksBuildInfoAsString (" (RocksDB) 7.8.3" and indented
// "name: value" lines), saying which godbbench this is: its version and
// commit, the Go toolchain, and the engines built in.
func buildInfoText(engines []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, " (godbbench) %s\n", buildinfo.Version)
	rev, modified := buildinfo.Commit()
	if rev == "" {
		rev = "0"
	}
	fmt.Fprintf(&b, "    godbbench_build_git_sha: %s\n", rev)
	if modified {
		b.WriteString("    godbbench_build_git_modified: true\n")
	}
	fmt.Fprintf(&b, "    db_bench_compatible_version: %s\n", Version)
	fmt.Fprintf(&b, "    go_version: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(&b, "    engines: %s\n", strings.Join(engines, " "))
	return b.String()
}

// printMallocStats is --print_malloc_stats: db_bench prints its allocator's
// statistics after "Malloc stats:" (nothing for the glibc malloc of
// Debian's build); here they are the Go runtime's memory statistics and
// the process's resident set, which also counts what engines map outside
// the Go heap (memtable arenas, mapped tables and WALs).
func (r *runner) printMallocStats() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	r.outf("Malloc stats:\n")
	r.outf("go_heap_alloc_bytes: %d\ngo_heap_inuse_bytes: %d\ngo_heap_sys_bytes: %d\n", m.HeapAlloc, m.HeapInuse, m.HeapSys)
	r.outf("go_stack_inuse_bytes: %d\ngo_sys_bytes: %d\n", m.StackInuse, m.Sys)
	r.outf("go_mallocs: %d\ngo_frees: %d\ngo_gc_cycles: %d\ngo_gc_pause_total_ns: %d\n", m.Mallocs, m.Frees, m.NumGC, m.PauseTotalNs)
	if rss, ok := residentBytes(); ok {
		r.outf("process_resident_bytes: %d\n", rss)
	}
	r.outf("\n")
}

// residentBytes reads the process's resident set from /proc/self/statm.
func residentBytes() (int64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	var size, resident int64
	if _, err := fmt.Sscan(string(b), &size, &resident); err != nil {
		return 0, false
	}
	return resident * int64(os.Getpagesize()), true
}
