package skiplist

import "unsafe"

// prefetch starts loading the cache line at p without waiting for it
// (PREFETCHT0).
//
//go:noescape
func prefetch(p unsafe.Pointer)
