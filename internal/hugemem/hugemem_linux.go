//go:build linux && !race

package hugemem

import (
	"fmt"
	"syscall"
	"unsafe"
)

// OffHeap reports that Map's regions lie outside the Go heap.
const OffHeap = true

// madvHugePage is MADV_HUGEPAGE (linux/mman.h).
const madvHugePage = 14

// Map returns a zeroed region of at least n bytes (see the package doc).
// The mapping is over-allocated by one huge page so its start can be
// aligned; the slack is virtual address space only, never touched.
func Map(n int) (*Region, error) {
	return mapAligned(n, false)
}

// MapExact is Map advising huge pages only over the 2 MiB pages wholly
// within the first n bytes; the partly used last one, if any, stays on
// 4 KiB pages. A region that ends up fully touched is then never more than
// n bytes resident, where Map's last huge page is resident in full once
// touched at all. For regions whose owner fills them completely (a block
// cache's slabs) rather than growing into them.
func MapExact(n int) (*Region, error) {
	return mapAligned(n, true)
}

func mapAligned(n int, wholePagesOnly bool) (*Region, error) {
	if n <= 0 {
		return nil, fmt.Errorf("hugemem: bad size %d", n)
	}
	size := (n + HugePageSize - 1) &^ (HugePageSize - 1)
	m, err := syscall.Mmap(-1, 0, size+HugePageSize, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_NORESERVE)
	if err != nil {
		return nil, fmt.Errorf("hugemem: mmap of %d bytes: %w", size+HugePageSize, err)
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(m)))
	skip := int((base+HugePageSize-1)&^(HugePageSize-1) - base)
	b := m[skip : skip+size : skip+size]
	advise := size
	if wholePagesOnly {
		advise = n &^ (HugePageSize - 1)
	}
	if advise >= HugePageSize {
		// Advisory: a kernel without THP returns EINVAL and the region
		// simply stays on 4 KiB pages.
		_ = syscall.Madvise(b[:advise], madvHugePage)
	}
	return &Region{Bytes: b[:n:n], mapping: m}, nil
}

// Free unmaps the region. It is safe on a nil region and idempotent.
func (r *Region) Free() error {
	if r == nil || r.mapping == nil {
		if r != nil {
			r.Bytes = nil
		}
		return nil
	}
	m := r.mapping
	r.mapping, r.Bytes = nil, nil
	if err := syscall.Munmap(m); err != nil {
		return fmt.Errorf("hugemem: munmap: %w", err)
	}
	return nil
}
