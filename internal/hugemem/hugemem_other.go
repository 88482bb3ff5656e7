//go:build !linux || race

package hugemem

import "fmt"

// Map returns a zeroed region of at least n bytes from the Go heap: other
// systems get neither huge pages nor off-heap memory. So do race-detector
// builds everywhere: the detector records synchronization only for atomics
// on Go memory, so a structure published by atomic stores into an mmap'd
// region (as memtable arenas are) would look unsynchronized to it, and
// every reader of Go memory ordered by those atomics would be reported.
// The region is a []byte, which the collector does not scan: pointers
// stored in it keep nothing alive, hence the package's rule that they may
// point only into regions their owner keeps.
func Map(n int) (*Region, error) {
	if n <= 0 {
		return nil, fmt.Errorf("hugemem: bad size %d", n)
	}
	return &Region{Bytes: make([]byte, n)}, nil
}

// OffHeap reports that Map's regions are Go heap allocations.
const OffHeap = false

// MapExact is Map: there are no huge pages to advise here.
func MapExact(n int) (*Region, error) { return Map(n) }

// Free drops the region's memory for the collector.
func (r *Region) Free() error {
	if r != nil {
		r.Bytes = nil
	}
	return nil
}
