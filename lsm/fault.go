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
//     more than the lookup), so its table search runs under the guard when
//     tables are mapped (db.opts.MmapRead, or DB.rtablesOpened once an
//     rtable table was opened). Get's callback runs inside the guard; a
//     caller that keeps the value and reads it after the callback returned
//     (which the contract forbids) is not protected.
//   - Opening any table, and the loop of a flush or compaction
//     (writeTables), which fails with the error and installs nothing.
//
// A DB iterator over an rtable table is not guarded: it hands out keys and
// values in place in the mapping, which the caller reads after the move
// returned, so no guard inside the iterator could cover them; a table file
// truncated under a live iterator faults the process, as a truncated
// mapped file does for any program reading it through a mapping.
