package lsm

import (
	"runtime/debug"

	"github.com/godbbench/godbbench/sst"
)

// Mapped tables (--mmap_read) are read in place, and a table file that
// shrinks after it was mapped faults on the pages it lost (see sst's
// FaultError). Every lsm operation that reads mapped memory (Get, the
// Iterator's moves and Value, flush and compaction) runs with
// runtime/debug.SetPanicOnFault on when tables are mapped, and turns such a
// fault into an sst corruption error naming the file:
//
//	if db.opts.MmapRead {
//		defer catchFault(debug.SetPanicOnFault(true), &err)
//	}
//
// SetPanicOnFault is per goroutine, so each operation sets it and restores
// the caller's setting; with tables not mapped nothing is set. Keys and
// values an operation hands out point into the mapping: a caller that
// reads them after the file shrank faults in its own code, and must set
// SetPanicOnFault itself to survive that.

// catchFault restores the goroutine's SetPanicOnFault setting prev and
// turns a recovered fault inside a mapped table into *err. Any other panic
// goes on.
func catchFault(prev bool, err *error) {
	debug.SetPanicOnFault(prev)
	if p := recover(); p != nil {
		*err = faultError(p)
	}
}

// faultError returns the error for a recovered fault inside a mapped table
// and re-panics with anything else.
func faultError(p any) error {
	err := sst.FaultError(p)
	if err == nil {
		panic(p)
	}
	return err
}

// catchFault is the Iterator's form of catchFault: a fault makes the
// iterator invalid for good (its sources may have stopped halfway through
// a move), with Error set; only Close follows.
func (it *Iterator) catchFault(prev bool) {
	debug.SetPanicOnFault(prev)
	if p := recover(); p != nil {
		it.valid, it.err, it.faulted = false, faultError(p), true
	}
}
