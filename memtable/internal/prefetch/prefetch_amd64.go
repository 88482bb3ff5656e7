package prefetch

import "unsafe"

// Line asks for the cache line holding p (PREFETCHT0). It never faults,
// whatever p is.
//
//go:noescape
func Line(p unsafe.Pointer)

// Lines3 asks for the cache lines holding p, p+64 and p+128: a memtable
// entry of db_bench's default shape (16-byte key, 100-byte value) with its
// node header spans three lines wherever it starts. It never faults,
// whatever p is.
//
//go:noescape
func Lines3(p unsafe.Pointer)
