// Package codepages lets a process give back the resident pages of shared
// libraries it has loaded but will not run: a db_bench binary built with
// the rocksdb engine maps librocksdb and the C++ libraries under it
// whatever engine a run uses, and their static initializers touch several
// megabytes of their code and read-only data at load, which then count in
// the process's resident set (and its peak, /usr/bin/time's %M) for the
// whole run of a native or pebble engine that never calls them.
//
// Contract: Release drops from the process's page tables the resident
// pages of every mapping whose file's base name starts with one of the
// given prefixes and that the process can never have written: private,
// not writable, holding no anonymous (copied-on-write) page, resident or
// swapped out. Such a page is
// the file's own, so dropping it loses nothing: a later access faults it
// back in from the page cache (or the file). Writable mappings (a library's
// data and bss) and relocated read-only ones (RELRO, whose pages the
// dynamic loader wrote) are left alone. The page cache is not touched:
// other processes keep their mappings. Elsewhere than Linux Release does
// nothing.
//
// ResidentAt reads the same table (/proc/self/smaps) for the mapping that
// holds one address, for tests of memory placed outside the Go heap.
package codepages

// Released is what one Release call dropped.
type Released struct {
	Mappings int   // mappings advised
	Bytes    int64 // their resident bytes before the call (smaps "Rss")
}

// Resident is the resident memory of one mapping, from smaps.
type Resident struct {
	Bytes     int64 // "Rss"
	HugePages int64 // "AnonHugePages": of Bytes, in transparent huge pages
}
