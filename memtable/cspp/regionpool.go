package cspp

import "github.com/godbbench/godbbench/internal/hugemem"

// Reusing arenas. A memtable's arena is written once from front to back, so
// every page of a fresh mapping is first touched by an insert, which then
// takes the page fault (the kernel zeroing the page, 2 MiB at a time on huge
// pages) on the write path: in native fillseq at 5M keys (8-byte keys,
// 50-byte values, batches of 1000) that was 16% of the CPU profile, all in
// the memmove of putBytes. A trie that the engine releases (Trie.Release)
// instead hands its region to a hugemem.Pool, which zeroes the part that
// was used (still resident, so no faults) and gives it to the next trie of
// the same size. The engine releases a memtable after its flush, once no read
// holds it; with db_bench's max_write_buffer_number=2 the active memtable
// then always finds the flushed one's region waiting.

// maxPooledRegions bounds the regions kept for reuse, and so the resident
// memory they hold beyond the live memtables: one is enough for the steady
// state of a write-heavy run (one active, one flushing, one waiting), two
// cover a flush finishing just after a switch.
const maxPooledRegions = 2

var regions = hugemem.Pool{Max: maxPooledRegions, MaxIdle: hugemem.DefaultMaxIdle}
