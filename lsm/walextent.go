package lsm

// mmapExtent is the largest extent of a mapped WAL (walmmap_linux.go).
const mmapExtent = 4 << 20

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
