package prefetch

// MaxSpanLines bounds the cache lines one Span asks for: a 200-byte entry
// (four lines wherever it starts) is covered, and a large value costs no
// more than four requests, of which the hardware's own prefetchers take
// over the rest once the reader streams through it.
const MaxSpanLines = 4
