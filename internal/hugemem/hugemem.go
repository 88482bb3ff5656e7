// Package hugemem hands out large, zeroed memory regions that live outside
// the Go heap, backed by transparent huge pages where the kernel offers
// them. Memtable arenas use it, and the block cache's slabs (sst.Cache):
// nothing in them needs the collector (rule below), they are read in random
// order, on a virtual machine a TLB miss on 4 KiB pages costs a
// two-dimensional page walk, and memory off the heap does not raise the
// collector's goal (GOGC's percentage of the live heap) by its size.
//
// Contract:
//   - Map(n) returns a Region of at least n zeroed bytes. Pages become
//     resident when first touched, as with any anonymous mapping. On Linux
//     the region is aligned to 2 MiB and, when n >= 2 MiB, advised with
//     MADV_HUGEPAGE, so with /sys/kernel/mm/transparent_hugepage/enabled set
//     to "madvise" or "always" each touched 2 MiB becomes one huge page.
//     Elsewhere, and in race-detector builds (see hugemem_other.go), Map
//     falls back to the Go heap.
//   - A Region must be released with Free exactly once, after the last use
//     of any slice of it; the memory is unmapped then, and touching it
//     afterwards faults. Owners that cannot know when the last use happens
//     tie Free to their own reachability (runtime.AddCleanup).
//   - A region may hold pointers into regions of the same owner, which the
//     owner keeps until it frees them all, and never a pointer to anything
//     else (a Go object, a stack). Off the heap (Linux without the race
//     detector) such a pointer is no Go pointer at all. Where Map falls
//     back to the Go heap, a region is a Go allocation of type []byte,
//     which the collector does not scan, so the pointers stored in it are
//     Go pointers the collector never sees. That is sound for pointers into
//     regions, and only for them: each target region is referenced by its
//     owner's list of regions until Free, so it stays reachable, and Go
//     never moves a heap object; a pointer to any other object would not
//     keep it alive. The memtables here (skiplist, offsetskiplist, cspp)
//     store 32-bit offsets only.
//
// Measured on the 2-core build machine (a Firecracker VM, THP "madvise"),
// BenchmarkRandomReadChain: a dependent random read chain over 512 MiB takes
// 209-211 ns a read in a Map region and 271-279 ns in a Go heap slice (a
// plain mmap without the advice: 425 ns).
package hugemem

// HugePageSize is the transparent huge page size on x86-64 and arm64 with 4
// KiB base pages.
const HugePageSize = 2 << 20

// Region is one mapping returned by Map.
type Region struct {
	// Bytes is the usable memory, len >= the size asked for.
	Bytes []byte
	// mapping is the whole mapping (alignment slack included), nil when the
	// region came from the Go heap.
	mapping []byte
}
