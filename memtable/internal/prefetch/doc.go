// Package prefetch starts a cache line on its way into the cache without
// waiting for it. A search that will load one of two nodes next, depending
// on a comparison whose operand is still missing the cache, prefetches the
// other one so that both misses overlap. Only amd64 issues an instruction
// (PREFETCHT0); elsewhere Line does nothing.
package prefetch
