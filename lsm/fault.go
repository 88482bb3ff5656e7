package lsm

// Mapped tables (--mmap_read, and rtable tables, which are always mapped)
// are read in place, and a table file that shrinks after it was mapped
// faults on the pages it lost. Both table packages register their mappings
// with internal/mmapfault, whose guard turns such a fault into an
// ErrCorruption error naming the file:
//
//	defer mmapfault.Catch(debug.SetPanicOnFault(true), &err)
//
// Package sst guards its own reads of a mapping and hands iterators
// copies, so a block-format iterator never touches a mapping outside sst.
// What lsm guards:
//   - Get reads keys and values in place (a copy of two blocks would cost
//     more than the lookup), so its table search always runs under the
//     guard (a search may open a mapped table and read it at once; the
//     guard costs a few nanoseconds). Get's callback runs inside the guard; a
//     caller that keeps the value and reads it after the callback returned
//     (which the contract forbids) is not protected.
//   - Opening any table, and the loop of a flush or compaction
//     (writeTables), which fails with the error and installs nothing.
//   - Iterators over rtable tables (iter_rtable.go): an rtable.Iter reads
//     its table in place on every Key, Seq, Kind and Value, so lsm wraps
//     it in rtableIter, which copies batches of entries out of the mapping
//     under one guard each and serves the walk from the copies. A fault
//     is the iterator's error (the merge and the DB iterator stop at once,
//     iter_db.go), and no byte a DB iterator hands out lies in a mapping.
