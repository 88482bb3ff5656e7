package sst

import (
	"fmt"
	"sync"
	"unsafe"
)

// Reads of a mapped table (ReaderOptions.Mmap) touch the file's pages
// directly. Open refuses a file shorter than its recorded size, but a file
// that shrinks later (truncated by another process, a damaged disk) leaves
// pages of the mapping with no file behind them, and touching one raises
// SIGBUS, which kills the process unless the reading goroutine asked for a
// panic instead (runtime/debug.SetPanicOnFault).
//
// The contract: a goroutine that reads mapped tables and must survive such
// a file sets SetPanicOnFault(true) around its reads and, in a deferred
// function, passes what it recovers to FaultError, which turns a fault
// inside a mapping into an ErrCorruption error naming the file. The sst
// package itself keeps its state sound across such a panic (a block cache
// slot being filled from the mapping is abandoned), so the Reader stays
// usable; an Iter that faulted must only be closed.

// mappings lists the mapped Readers, so that a fault address can be traced
// to its file. Tables are mapped and unmapped rarely (open and close), so a
// mutex and a map are enough.
var mappings struct {
	sync.Mutex
	m map[*Reader]struct{}
}

func registerMapping(r *Reader) {
	mappings.Lock()
	if mappings.m == nil {
		mappings.m = make(map[*Reader]struct{})
	}
	mappings.m[r] = struct{}{}
	mappings.Unlock()
}

func unregisterMapping(r *Reader) {
	mappings.Lock()
	delete(mappings.m, r)
	mappings.Unlock()
}

// faultAddr is implemented by the runtime's error for a memory fault under
// SetPanicOnFault.
type faultAddr interface {
	error
	Addr() uintptr
}

// FaultError returns the error for p, a value recovered from a panic: for a
// memory fault at an address inside a mapped table, an error wrapping
// ErrCorruption that names the table; for a fault elsewhere or any other
// panic, nil (the caller re-panics with p).
func FaultError(p any) error {
	f, ok := p.(faultAddr)
	if !ok {
		return nil
	}
	addr := f.Addr()
	mappings.Lock()
	defer mappings.Unlock()
	for r := range mappings.m {
		m := r.mapped
		if len(m) == 0 {
			continue
		}
		start := uintptr(unsafe.Pointer(unsafe.SliceData(m)))
		if addr >= start && addr-start < uintptr(len(m)) {
			return fmt.Errorf("%w: %s at offset %d: memory-mapped read failed (the file shrank or changed after it was opened): %v",
				ErrCorruption, r.name, addr-start, f)
		}
	}
	return nil
}
