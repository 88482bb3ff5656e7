// Package hashrep is RocksDB's two prefix-hashed memtables for the native
// engine: HashSkipListRep (memtable/hash_skiplist_rep.cc), registered as
// "prefix_hash" and "HashSkipListRepFactory", and HashLinkListRep
// (memtable/hash_linklist_rep.cc), registered as "hash_linkedlist" and
// "HashLinkListRepFactory". Both need a prefix extractor: the first
// Config.PrefixSize bytes of a key (RocksDB's NewFixedPrefixTransform; a
// shorter key is its own prefix) pick one of a fixed number of buckets.
//
// Contract (memtable.Rep):
//   - A bucket holds the entries of the prefixes that hash to it, in
//     internal-key order, as a lock-free skiplist: of height up to 4 with
//     branching factor 4 for prefix_hash (HashSkipListRepFactory's
//     defaults, or Config.SkipListHeight and Config.SkipListBranching).
//     A hash_linkedlist bucket is a sorted linked list (every node of
//     height 1) for its first threshold_use_skiplist entries (256, or
//     Config.ListEntries); RocksDB then copies the bucket into a skiplist,
//     here the later nodes get skiplist heights (up to 12, branching 4)
//     in place, so a bucket's search costs at most a walk past its first
//     256 entries plus a skiplist's, with no copy and no lock.
//   - Add may run from many goroutines: a node is linked bottom-up with one
//     compare-and-swap per level, as in memtable/skiplist. Get reads one
//     bucket and never blocks.
//   - Iterators give the total order: like RocksDB's full-order iterator of
//     these reps, which copies every bucket into one skiplist, they read a
//     run of all entries merged from every bucket and sorted
//     (sortedrun.Cache), built again only when entries were added since. An
//     immutable memtable's run is built once. RocksDB's prefix iterator,
//     which sees one bucket only, is not offered: every scan sees all keys.
//   - Bucket counts: "prefix_hash:N" and "hash_linkedlist:N" (Config.Param)
//     set N buckets; the defaults are the factories' (1,000,000 and
//     50,000).
//
// Memory: nodes, their links and the key and value copies come from chunks
// shared by all buckets (sortedrun.Chunks); the bucket array is one
// pointer per bucket. Nothing is persisted, so there is no on-disk format.
package hashrep
