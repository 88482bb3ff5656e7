package offsetskiplist

import "github.com/godbbench/godbbench/internal/hugemem"

// Reusing chunks. A big arena grows by 2 MiB huge-page regions, and the
// first touch of each is a page fault (the kernel zeroing 2 MiB) taken by
// an Add. A list that its owner releases (List.Release, after a flush) hands
// its regions to a hugemem.Pool instead of unmapping them; they are zeroed on a
// goroutine of their own and go to the next lists' arenas, already
// resident. The same change in package cspp took native fillseq at 5M keys
// from 2.71-3.00M to 3.16-3.71M ops/s.

// maxPooledChunks bounds the regions kept: 128 MiB, two default 64 MiB
// memtables' worth.
const maxPooledChunks = 64

var chunks = hugemem.Pool{Max: maxPooledChunks, MaxIdle: hugemem.DefaultMaxIdle}

// poolChunks hands the regions of a released arena to chunks: whole
// bigChunkBytes regions are kept, the partial last chunk of an arena at its
// capacity is unmapped.
func poolChunks(regions []*hugemem.Region) { chunks.Recycle(regions, bigChunkBytes) }
