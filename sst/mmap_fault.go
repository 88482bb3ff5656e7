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
// What sst does about it:
//   - Open and every block load of a mapped table (checksum, decompression,
//     copy) run with SetPanicOnFault on, restoring the caller's setting
//     after, and return a fault as FaultError's error: one guard per block,
//     none per entry. A cache slot being filled when the fault hits is
//     abandoned, so the cache stays sound.
//   - Meta blocks (index, filter, properties) are copied out of the mapping
//     at Open, and an Iter copies raw blocks out of it as it loads them, so
//     an Iter's moves, its Key and Value bytes and the caller's reads of
//     them never touch the mapping. (A copy of a 4 KiB block costs about 3
//     ns per entry of a raw mapped scan; a guard on every move cost more.)
//   - Reader.Get hands its callback bytes in place, as a point lookup must
//     stay cheap: a caller that can meet a shrinking file guards its Get
//     calls itself (lsm does), passing what it recovers to FaultError.

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
