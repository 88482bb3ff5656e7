// Package mmapfault turns a memory fault inside a mapped file into an error
// that names the file, so that a table file that shrinks after it was
// mapped ends the read that meets it with an error instead of killing the
// process.
//
// The problem: a read-only shared mapping of a file stays valid when the
// file is truncated (by another process, a damaged disk), but its pages
// past the new end of the file have nothing behind them, and touching one
// raises SIGBUS. The Go runtime kills the process on such a fault unless
// the faulting goroutine asked for a panic instead with
// runtime/debug.SetPanicOnFault; the panic's value then carries the
// faulting address.
//
// The contract: a reader that maps a file calls Register with the
// mapping, the name of the file and the sentinel error its corruption
// errors wrap, and calls Unregister on the returned Region before it
// unmaps the file. Code that reads a registered mapping, or bytes handed
// out in place from one, runs under a guard:
//
//	defer mmapfault.Catch(debug.SetPanicOnFault(true), &err)
//
// Catch restores the goroutine's previous setting and turns a fault at an
// address inside a registered mapping into *err, an error wrapping the
// region's sentinel that names the file and the offset of the fault. Any
// other panic, and a fault anywhere else, goes on as it was. Error does
// the same for a value the caller recovered itself, for a guard that must
// also clean up.
//
// A guard costs two runtime calls and a deferred call, a few nanoseconds:
// callers guard a batch of work (a block load, a Get, an iterator move),
// never each byte. Regions are registered and unregistered when tables are
// opened and closed, which is rare, so the registry is a map under a
// mutex, searched only when a fault happened.
package mmapfault

import (
	"fmt"
	"runtime/debug"
	"sync"
	"unsafe"
)

// Region is a registered mapping.
type Region struct {
	start, length uintptr
	name          string
	corrupt       error
}

// regions is the set of registered mappings.
var regions struct {
	sync.Mutex
	m map[*Region]struct{}
}

// Register records data, a live mapping of the file name, and returns its
// Region. An error for a fault inside it wraps corrupt. An empty mapping
// registers nothing and returns nil, whose Unregister does nothing.
func Register(data []byte, name string, corrupt error) *Region {
	if len(data) == 0 {
		return nil
	}
	r := &Region{
		start:   uintptr(unsafe.Pointer(unsafe.SliceData(data))),
		length:  uintptr(len(data)),
		name:    name,
		corrupt: corrupt,
	}
	regions.Lock()
	if regions.m == nil {
		regions.m = make(map[*Region]struct{})
	}
	regions.m[r] = struct{}{}
	regions.Unlock()
	return r
}

// Unregister forgets r; it is called before the mapping is unmapped.
func (r *Region) Unregister() {
	if r == nil {
		return
	}
	regions.Lock()
	delete(regions.m, r)
	regions.Unlock()
}

// Registered returns the number of registered regions (for leak checks).
func Registered() int {
	regions.Lock()
	defer regions.Unlock()
	return len(regions.m)
}

// faultAddr is implemented by the runtime's error for a memory fault under
// SetPanicOnFault.
type faultAddr interface {
	error
	Addr() uintptr
}

// Error returns the error for p, a value recovered from a panic: for a
// memory fault at an address inside a registered mapping, an error
// wrapping the region's sentinel that names the file and the offset; for a
// fault elsewhere or any other panic, nil (the caller re-panics with p).
func Error(p any) error {
	f, ok := p.(faultAddr)
	if !ok {
		return nil
	}
	addr := f.Addr()
	regions.Lock()
	defer regions.Unlock()
	for r := range regions.m {
		if addr >= r.start && addr-r.start < r.length {
			return fmt.Errorf("%w: %s at offset %d: memory-mapped read failed (the file shrank or changed after it was opened): %v",
				r.corrupt, r.name, addr-r.start, f)
		}
	}
	return nil
}

// Catch is deferred by a guarded function, with prev the goroutine's
// SetPanicOnFault setting from before the guard: it restores the setting
// and turns a fault inside a registered mapping into *err. Any other panic
// goes on.
func Catch(prev bool, err *error) {
	debug.SetPanicOnFault(prev)
	if p := recover(); p != nil {
		ferr := Error(p)
		if ferr == nil {
			panic(p)
		}
		*err = ferr
	}
}
