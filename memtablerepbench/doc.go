// Package memtablerepbench is memtablerep_bench: RocksDB's memtable microbenchmark
// (memtable/memtablerep_bench.cc, 7.8.3) over the memtable.Rep
// implementations, with the same flags, defaults, key streams and output.
// cmd/memtablerep_bench is a thin main around Main.
//
// # Reps
//
// --memtablerep takes the C++ tool's names, skiplist, vector (with
// --vectorrep_count), hashskiplist and hashlinklist (with --bucket_count and
// a --prefix_length-byte prefix; hashskiplist with --hashskiplist_height and
// --hashskiplist_branching_factor), and any spelling memtable.Lookup knows,
// such as cspp:{"mem_cap":"4G"} (reps.go).
//
// # Benchmarks
//
//   - fillseq: a new memtable; keys 0..N-1 in order, one thread.
//   - fillrandom: a new memtable; a shuffle of 0..N-1 (std::shuffle with
//     std::mt19937((uint32)seed)), one thread.
//   - readrandom: the previous memtable; --num_threads threads each do
//     N/threads lookups of rand % N at the current sequence.
//   - readseq: the previous memtable; each thread makes --num_scans full
//     scans (backwards with ToplingDB's --reverse).
//   - readwrite / seqreadwrite: a new memtable; one writer inserts random
//     keys until the other threads finish N/(threads-1) lookups (readwrite)
//     or N/(threads-1) full scans (seqreadwrite).
//   - Anything else prints "WARNING: skipping unknown benchmark '<name>" (no
//     closing quote) and the run continues.
//
// N is --num_operations. All benchmarks share one Random64 (std::mt19937_64
// seeded with --seed). Threads draw random keys from it in batches of 256
// under a mutex, so the key multiset is the C++ one while the per-op cost
// stays one slice read. readrandom or readseq before any fill is an error
// (exit 1), where the C++ tool crashes.
//
// # Entries
//
// The key is the key number as 8 little-endian bytes; the sequence is
// incremented per insert; the value is item_size bytes from a buffer of
// max(1 MiB, item_size) bytes made by Random(301).RandomString, handed out
// in consecutive slices that wrap to the start. RocksDB encodes this as
// varint32(16) + key + 8-byte sequence + value, so every insert counts
// item_size+17 bytes written and every hit (or scanned entry) item_size+17
// bytes read, as here; the Rep itself stores key, sequence and value.
//
// # Output
//
// stdout, C++ stream formatting (doubles with 6 significant digits, as
// printf "%g"):
//
//	Running fillrandom
//	Number of threads: 1
//	Elapsed time: 237197 us
//	Total bytes written: 11.158 MiB
//	Write throughput: 47.041 MiB/s
//	write us/op: 2.37197
//	ApproximateMemoryUsage: 59736064 bytes (56.9688 MiB), arena: 59736064 bytes (56.9688 MiB)
//	Running readrandom
//	Number of threads: 2
//	read hit%: 100
//	Elapsed time: 318045 us
//	Total bytes read: 11.1565 MiB
//	Read throughput: 35.0785 MiB/s
//	read us/op: 6.3609
//	ApproximateMemoryUsage: ...
//
// Elapsed is whole microseconds; MiB is bytes/2^20; throughput is MiB per
// second of elapsed time; us/op divides elapsed by the per-thread op count
// (N for writes, N/threads for readrandom, num_scans for readseq,
// N/(threads-1) for the readers of readwrite). "read hit%" (readrandom only)
// is hits/N*100. Write lines appear only when bytes were written, read lines
// only when bytes were read. The ApproximateMemoryUsage line, after every
// benchmark that has a memtable, is ToplingDB's addition; here every rep owns
// its arena, so both numbers are the rep's ApproximateMemoryUsage.
//
// Differences from the C++ tool, all outside the timed region: the value
// buffer is built once, and a GC runs before each benchmark so garbage from
// the previous one is not billed to it.
package memtablerepbench
