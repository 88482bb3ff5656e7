package prefetch

import "unsafe"

// Line asks for the cache line holding p (PREFETCHT0). It never faults,
// whatever p is.
//
//go:noescape
func Line(p unsafe.Pointer)
