package cspp

import "unsafe"

// prefetch asks the CPU to bring the cache line at p into the cache without
// waiting for it (PREFETCHT0): a plain load that misses holds up every
// later instruction's retirement, so only some 200 instructions can run
// under it, while a prefetch lets the walk go on for a whole entry.
//
//go:noescape
func prefetch(p unsafe.Pointer)
