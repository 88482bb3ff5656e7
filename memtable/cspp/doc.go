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
//   - Key, value and version bytes live in the arena for the life of the
//     Trie; Get's value and Iter.Value point into it. Iter.Key is rebuilt
//     from the path and copied once per user key into an iterator-owned slab
//     that is never overwritten, so it too stays valid.
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
// it). Slot numbers (offsets) are uint32; offset 0 means "none". Allocation
// is one atomic add on a cursor; nothing is ever freed or reused while the
// Trie lives, so a reader holding any offset can always follow it. Replaced
// nodes and outgrown version blocks are dead weight counted by
// ApproximateMemoryUsage. Measured by TestDeadWeight (200,000 keys, empty
// values): random 16-byte keys use 70.4 bytes an entry of which 12.9 are
// dead (growth copies of inner nodes, leaves split under new branches);
// random 8-byte keys 60.3 and 10.8; sequential keys 46.5 and 2.5. That is
// under a fifth of the arena, paid once per memtable, against epoch tracking
// on every read of a structure that is thrown away whole after a flush. Bytes inside slots (compressed paths,
// values) are in memory order; slots are host-endian (little-endian on every
// supported platform). Slot 0 is unused; the root occupies slots 1..258.
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
// tag = seq<<8 | kind. Entries are in ascending tag order (the newest last)
// unless the unsorted bit is set. A block's capacity is the next power of two
// >= count. A fresh key gets pin, block, one entry and the value in one run,
// placed right after its leaf. An empty value has offset 0.
//
// # Concurrency
//
// Readers use atomic loads of headers, links, labels, pins and num words;
// everything else they read was written before the atomic store that made it
// reachable and is never written again. Writers change a published node only
// by appending a child (link and label stored, then the header with count+1),
// by setting a missing value pin, or by marking it dead, each holding the
// node's lock bit. To replace a node (grow to the next class, or split its
// compressed path) a writer locks the parent, checks the parent's link still
// points at the node, locks the node, builds the copy, stores the link, and
// marks the old node dead, keeping its lock forever. Locks are taken parent
// before child, so writers cannot deadlock; a writer that finds a node dead
// retries from the root. Versions are added under the pin's lock: in place
// (entry written, then the num word) or into a new block of twice the
// capacity published by storing the pin.
//
// # Example
//
// Add("ab", seq 7, Set, "v") then Add("ac", seq 8, Delete, "") on an empty
// Trie gives these slots (hexadecimal values; TestLayoutExample checks them):
//
//	1         48        root header: class 8 (direct), count 1
//	2         0         root value pin: no empty key
//	100       115       root link for label 'a' (slot 3+0x61) -> head node
//	259       8030      old leaf for "ab": zlen 1 | dead | lock (replaced)
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
