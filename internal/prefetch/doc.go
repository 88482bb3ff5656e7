// Package prefetch starts cache lines on their way into the cache without
// waiting for them. Three uses:
//
//   - A search that will load one of two nodes next, depending on a
//     comparison whose operand is still missing the cache, prefetches the
//     other one so that both misses overlap (Line).
//   - A walk in key order over nodes allocated in insertion order, whose
//     neighbours lie far apart, prefetches the next node's entry as soon as
//     it knows its address, so that the fetch overlaps the caller's work on
//     the current entry instead of stalling the next step (Span, with the
//     current entry's size as the guess for the next one's).
//   - A write that will set bits in a line of a filter once other work is
//     done asks for the line first, so that the work overlaps the miss
//     (Line; package lsm's memtable bloom).
//
// A plain load that misses holds up the retirement of every later
// instruction, so only some 200 instructions run under it; a prefetch lets
// the work go on. A prefetch never faults, whatever its address, and
// changes no memory. Each call is one assembly call (1-2 ns; assembly does
// not inline). Only amd64 issues instructions (PREFETCHT0); elsewhere the
// functions do nothing.
package prefetch
