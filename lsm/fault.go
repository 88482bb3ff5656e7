package lsm

import (
	"runtime/debug"

	"github.com/godbbench/godbbench/rtable"
	"github.com/godbbench/godbbench/sst"
)

// Mapped tables (--mmap_read) are read in place, and a table file that
// shrinks after it was mapped faults on the pages it lost (see sst's
// FaultError). Package sst guards its own reads of a mapping and hands
// iterators copies, so iterators, flushes and compactions never touch a
// mapping outside sst. Get reads keys and values in place (a copy of two
// blocks would cost more than the lookup), so the table search of Get runs
// with runtime/debug.SetPanicOnFault on when tables are mapped, restoring
// the caller's setting after, and turns a fault into an sst corruption
// error naming the file:
//
//	if db.opts.MmapRead {
//		defer catchFault(debug.SetPanicOnFault(true), &err)
//	}
//
// Get's callback runs inside that guard; a caller that keeps the value and
// reads it after the callback returned (which the contract forbids) is
// not protected.
//
// rtable tables are always mapped and read in place, Get and iterators
// alike, so Get runs under the guard as soon as one is open
// (DB.rtablesOpened), opening any table runs under it, and so does the
// loop of a flush or compaction (writeTables), which fails with the
// error and installs nothing. A DB iterator over an rtable table is not
// guarded: it hands out keys and values in place in the mapping, which
// the caller reads after the move returned, so no guard inside the
// iterator could cover them; a table file truncated under a live
// iterator faults the process, as a truncated mapped file does for any
// program reading it through a mapping.

// catchFault restores the goroutine's SetPanicOnFault setting prev and
// turns a recovered fault inside a mapped table into *err. Any other panic
// goes on.
func catchFault(prev bool, err *error) {
	debug.SetPanicOnFault(prev)
	if p := recover(); p != nil {
		ferr := sst.FaultError(p)
		if ferr == nil {
			ferr = rtable.FaultError(p)
		}
		if ferr == nil {
			panic(p)
		}
		*err = ferr
	}
}
