package prefetch

import "unsafe"

// Line asks for the cache line holding p (PREFETCHT0). It never faults,
// whatever p is.
//
//go:noescape
func Line(p unsafe.Pointer)

// Span asks for the cache lines holding the n bytes from p, at most
// MaxSpanLines of them (the first ones). It never faults, whatever p and n
// are; n = 0 asks for p's line.
//
//go:noescape
func Span(p unsafe.Pointer, n uintptr)
