// Package hugemem hands out large, zeroed, pointer-free memory regions that
// live outside the Go heap, backed by transparent huge pages where the
// kernel offers them. Memtable arenas use it: they are pointer-free (the
// collector never needs to see them), they are read in random order, and on
// a virtual machine a TLB miss on 4 KiB pages costs a two-dimensional page
// walk.
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
//   - Regions hold no Go pointers and must never be given any.
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
