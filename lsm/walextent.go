package lsm

// mmapExtent is the largest extent of a mapped WAL (walmmap_linux.go).
// Every page of a mapped extent is resident (MAP_POPULATE), and up to four
// extents are mapped at once: the active WAL's current one, the next one
// made ahead of the writes (walmmap_ahead_linux.go), a filled one until it
// is unmapped, and the first extent of the WAL made ahead (walnext.go). At
// 4 MiB that was 8-12 MB of db_bench's peak RSS at the defaults; at 1 MiB
// it is at most 4 MiB, for one fallocate, mmap and munmap per MiB of log,
// where the page faults (one per 4 KiB, MAP_POPULATE's either way)
// dominate (docs/BENCHMARKS.md, "Peak RSS at the defaults").
const mmapExtent = 1 << 20

// walExtent is the extent of the WAL of a memtable of writeBuffer bytes:
// half of it rounded up to a power of two, between 64 KiB and
// mmapExtent.
func walExtent(writeBuffer int64) int64 {
	e := int64(64 << 10)
	for e < writeBuffer/2 && e < mmapExtent {
		e <<= 1
	}
	return e
}
