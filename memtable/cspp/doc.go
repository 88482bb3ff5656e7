// Package cspp is a memtable.Rep built as a concurrent Patricia trie in one
// arena of 4-byte slots, after ToplingDB's CSPP memtable: the trie path is
// the user key only, each user key owns a vector of versions, readers take
// no locks, and writers change the trie by copy-on-write published with one
// atomic store under tiny per-node spin locks.
//
// # Contract
//
//   - Add may run from many goroutines at once. Get and iterators run
//     concurrently with Add, without locks, and see every Add that completed
//     before they started (an iterator sees each node as it was when it
//     stepped into it).
//   - Iterators implement memtable.Closer: a valid iterator holds an epoch
//     registration until it stops being valid or is closed (see
//     Reclamation). Close is idempotent and leaves the iterator at its entry.
//   - Value bytes live in the arena for the life of the Trie and are never
//     reused; Get's value and Iter.Value point into it. Iter.Key is rebuilt
//     from the path and copied once per user key into an iterator-owned slab
//     that is never overwritten, so it too stays valid. Nodes and version
//     blocks are reused once replaced (see Reclamation).
//   - The arena is fixed at construction (New(memCap), at most 8 GiB). Add
//     returns memtable.ErrFull when it is exhausted; the trie stays intact
//     and every later Add returns ErrFull too (exhaustion is sticky). A key
//     or value that can never fit (>= memCap) gets ErrFull at once.
//   - Adding the same (user key, sequence) twice returns an error.
//
// # Arena
//
// The arena is one []uint32 of memCap/4 slots, allocated once (fresh pages:
// resident only once touched; no Go pointers, so the collector never scans
// it). From 16 MiB up it is mapped outside the Go heap on transparent huge
// pages (internal/hugemem; unmapped when the Trie becomes unreachable):
// memtablerep_bench with 3M random keys, readrandom 0.48 -> 0.35 µs/op. Slot numbers (offsets) are uint32; offset 0 means "none". A run of n
// slots comes from the free list of size n when one waits (reclaim.go),
// otherwise from a cursor bumped by one atomic add. ApproximateMemoryUsage
// is the cursor: the high-water mark of slots ever handed out. Bytes inside
// slots (compressed paths, values) are in memory order; slots are
// host-endian (little-endian on every supported platform). Slot 0 is
// unused; the root occupies slots 1..258.
//
// Measured by TestDeadWeight (200,000 keys, empty values, one writer):
// random 16-byte keys use 58.1 bytes an entry of which 0.6 are dead
// (retired runs still waiting out their grace periods, free runs of sizes
// no one asked for again); random 8-byte keys 50.3 and 0.7; sequential keys
// 44.1 and 0.0. Without reuse the same loads used 70.4 (12.9 dead: growth
// copies of inner nodes, leaves split under new branches), 60.3 (10.8) and
// 46.5 (2.5). Random keys retire 0.53 runs an Add, sequential keys 0.03.
//
// # Nodes
//
// A node is a run of slots:
//
//	slot 0          header
//	slot 1          value pin: offset of the key's version vector, 0 if no key ends here
//	labels          ceil(cap/4) slots, label j in bits 8*(j%4).. of slot j/4 (small nodes)
//	links           cap slots: offsets of the children, link j belongs to label j
//	                (direct node: 256 slots indexed by the label byte, no label slots)
//	compressed path ceil(zlen/4) slots: the zlen key bytes that follow the
//	                label leading to this node, matched before anything else
//
// Header bits: 0..3 class, 4 lock, 5 dead, 6..14 child count, 15..31 zlen.
// Classes and capacities: 0 leaf (0), 1 (1), 2 (2), 3 (4), 4 (8), 5 (16),
// 6 (32), 7 (48), 8 direct (256). Labels of a small node are unsorted
// (children are appended); lookups test four labels per slot with a SWAR
// zero-byte test, iterators sort a snapshot. The key of a node is the
// concatenation, from the root, of each node's compressed path and the label
// of the link taken out of it. The root is a direct node that is never
// replaced; its value pin is the empty key's. A suffix longer than
// 2^17-1 bytes becomes a chain of one-child nodes.
//
// # Version vectors
//
//	pin    1 slot: offset of the current block, bit 31 the writers' lock
//	block  num word (bits 0..30 count, bit 31 unsorted), then count entries
//	entry  4 slots: tag bits 0..31, tag bits 32..63, value offset, value length
//
// tag = seq<<8 | kind (a base.Trailer). Entries are in ascending tag order
// (the newest last) unless the unsorted bit is set. A block's capacity is
// the next power of two >= count. A fresh key gets pin, block, one entry and the value in one run,
// placed right after its leaf (unless either comes from a free list). An
// empty value has offset 0.
//
// # Concurrency
//
// Readers use atomic loads of headers, links, labels, pins and num words;
// everything else they read was written before the atomic store that made it
// reachable and is not written again while they can reach it. Writers change
// a published node only by appending a child (link and label stored, then
// the header with count+1), by setting a missing value pin, or by marking it
// dead, each holding the node's lock bit. To replace a node (grow to the
// next class, or split its compressed path) a writer locks the parent,
// checks the parent's link still points at the node, locks the node, builds
// the copy, stores the link, marks the old node dead, keeping its lock until
// the run is reused, and retires it. Locks are taken parent before child,
// so writers cannot deadlock; a writer that finds a node dead retries from
// the root. Versions are added under the pin's lock: in place (entry
// written, then the num word) or into a new block of twice the capacity
// published by storing the pin, the old block being retired.
//
// # Reclamation
//
// Epoch-based (epoch.go, reclaim.go). Every Add and Get registers in one of
// 16 padded counters of the current epoch's parity for its whole duration;
// the global epoch advances only when no registration from two epochs back
// remains, never waiting. A retired run is tagged with the epoch read after
// its unlink and is safe from every registered caller two epochs later. An
// iterator registers when it is positioned and keeps the registration
// between calls, so Next reads nodes and version blocks in place; it lets
// go when it stops being valid, when Close is called, and every 4096 steps
// of a scan (renewing at once). Because an iterator may keep offsets while
// not registered (after Close or a renewal), safe runs first bump a
// reclamation generation and wait two more epochs before they reach the
// free lists; an iterator that registers again and finds the generation
// changed re-seeks to its current (key, seq) before stepping. reclaim.go
// holds the proof. Free lists are intrusive stacks by exact size up to 1024
// slots; a reused run is zeroed before use.
//
// What a held registration costs: while a valid iterator is left unclosed,
// the epoch cannot move past the one after its registration's, so no run
// retired from then on is reused; allocation falls back to the cursor and
// the trie's memory grows towards the no-reuse figures (Arena: 70.4
// against 58.1 bytes an entry for random 16-byte keys), never beyond them,
// plus a 16-byte record on the Go heap per retired run (0.53 an Add for
// random keys) until the iterator lets go. A scan that keeps moving holds it for at most 4096
// entries at a time. With invariants on, Release reports a registration
// still held (an iterator never closed).
//
// Costs, measured against the same code without reclamation on the shared
// 2-core test machine (best of 3 to 4 interleaved runs; other jobs were
// running, so a few percent either way is noise). A registration is two
// atomic adds on the caller's shard counter, 15 to 30 ns here. Get pays it
// once: BenchmarkGetHit 161 -> 180 ns (other runs: 173 -> 190, 204 -> 209).
// An iterator pays it once per positioning call and once per 4096 steps
// (docs/BENCHMARKS.md, "cspp's scan holds its registration"). Add pays one
// atomic add more than before (leaving the registration also counts the
// entry, replacing the entry counter's add) and, per
// retirement (0.53 an Add for random keys), a shard mutex to retire and
// another to reuse: BenchmarkAdd random 16-byte keys 160 -> 200 ns,
// sequential 60 -> 75 ns, random with 100-byte values 242 -> 302 ns; in
// exchange 17% less memory (69.7 -> 57.9 bytes an entry, 169.7 -> 157.9 with values). Len
// sums the 32 counters. A goroutine descheduled while registered holds the
// epoch back: retired runs then wait (their 16-byte queue records live on
// the Go heap) and allocation falls back to the cursor, so memory degrades
// towards the no-reuse figures above, never beyond them.
//
// # Iteration
//
// An iterator keeps a stack of frames, one per inner node on the path from
// the root, with a sorted snapshot of a small node's children (direct nodes
// are read in place). A leaf gets no frame: the walk stands in it from its
// parent's frame (iter.go), and its key is rebuilt only when asked for. Next
// takes an older version of the same key, or the next sibling leaf with a
// sorted version block, in place, copying only the entry's tag and value
// location (sibling.go); anything else walks the trie. A small node's
// children are sorted by a 256-bit label set (sortChildren). A forward walk
// prefetches the leaves 8 siblings (or, in a direct node, 8 labels) ahead
// and the next inner node (touchAhead, touchAheadDirect, touchFirst,
// touchNextNode), so that their misses overlap. Cachegrind of
// memtablerep_bench readseq after fillrandom of 1M keys, instructions an
// entry: 709 with a frame per leaf, 383 with read-ahead batches copied out
// while registered; skip_list's is 30. Holding the registration took 59
// more off (the iterator's own functions 347 -> 313) and, with the
// prefetches, halved the scan's CPU time, to below skip_list's
// (docs/BENCHMARKS.md,
// "cspp's full scan", "cspp's scan per entry" and "cspp's scan holds its
// registration").
//
// # Example
//
// Add("ab", seq 7, Set, "v") then Add("ac", seq 8, Delete, "") on an empty
// Trie gives these slots (hexadecimal values; TestLayoutExample checks them):
//
//	1         48        root header: class 8 (direct), count 1
//	2         0         root value pin: no empty key
//	100       115       root link for label 'a' (slot 3+0x61) -> head node
//	259       8030      old leaf for "ab": zlen 1 | dead | lock (retired)
//	260       106       its pin (shared with the copy at 282)
//	261       62        its compressed path "b"
//	262       107       pin of "ab": block at 263
//	263       1         num: one entry, sorted
//	264 265   701 0     tag 7<<8|1
//	266 267   10c 1     value at slot 268, 1 byte
//	268       76        "v"
//	269 270   0 10f     leaf for "ac": no path, pin 271
//	271..276  110 1 800 0 0 0   pin, num, tag 8<<8|0, empty value
//	277       82        head: class 2, count 2, zlen 0
//	278       0         no key ends at "a"
//	279       6362      labels 'b' 'c'
//	280 281   11a 10d   links: 'b' -> 282, 'c' -> 269
//	282 283   0 106     copy of the "ab" leaf with an empty path, pin 262
package cspp
