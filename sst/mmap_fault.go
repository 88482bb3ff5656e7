package sst

// Reads of a mapped table (ReaderOptions.Mmap) touch the file's pages
// directly. Open refuses a file shorter than its recorded size, but a file
// that shrinks later (truncated by another process, a damaged disk) leaves
// pages of the mapping with no file behind them, and touching one raises
// SIGBUS, which kills the process unless the reading goroutine asked for a
// panic instead (runtime/debug.SetPanicOnFault). Package
// internal/mmapfault holds the mechanism: a Reader registers its mapping
// there, under its name and ErrCorruption, and a guard turns a fault
// inside it into an ErrCorruption error naming the table.
//
// What sst does about it:
//   - Open and every block load of a mapped table (checksum, decompression,
//     copy) run with SetPanicOnFault on, restoring the caller's setting
//     after, and return a fault as an error: one guard per block, none per
//     entry. A cache slot being filled when the fault hits is abandoned, so
//     the cache stays sound.
//   - Meta blocks (index, filter, properties) are copied out of the mapping
//     at Open, and an Iter copies raw blocks out of it as it loads them, so
//     an Iter's moves, its Key and Value bytes and the caller's reads of
//     them never touch the mapping. (A copy of a 4 KiB block costs about 3
//     ns per entry of a raw mapped scan; a guard on every move cost more.)
//   - Reader.Get hands its callback bytes in place, as a point lookup must
//     stay cheap: a caller that can meet a shrinking file guards its Get
//     calls itself (lsm does, with mmapfault.Catch).
