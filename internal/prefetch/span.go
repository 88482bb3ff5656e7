package prefetch

// MaxSpanLines bounds the cache lines one Span asks for (the assembly reads
// it from go_asm.h). Four lines hold any entry of up to 193 bytes wherever
// it starts, db_bench's default skip_list entry (134 bytes from the node's
// level-0 link) with room; a large value costs no more than four requests,
// and the hardware's own prefetchers take over once the reader streams
// through it.
const MaxSpanLines = 4
