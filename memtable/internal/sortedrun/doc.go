// Package sortedrun holds what the memtable reps that keep no total order
// while they are written (vector, prefix_hash, hash_linkedlist) share: an
// entry, a sorted run of entries with its searches and its memtable.Iter,
// the cache of the run built from a rep's entries, and a chunk allocator
// that hands out the copies of keys and values.
//
// Contract: a Run is sorted in internal-key order (user key ascending, then
// sequence descending) and never changed once published, so any number of
// goroutines may read it while the rep it came from keeps growing. Entries
// point into their rep's chunks, which live as long as any slice of them
// does. Nothing here is persisted, so there is no on-disk format.
package sortedrun
