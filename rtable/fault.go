package rtable

import (
	"encoding/binary"
	"fmt"
	"io"
	"sync"
	"unsafe"
)

// A Reader reads its table in place through a mapping. A table file that
// shrinks after Open (truncated by another process, a damaged disk) leaves
// pages of the mapping with no file behind them, and touching one raises
// SIGBUS, which kills the process unless the reading goroutine asked for a
// panic instead (runtime/debug.SetPanicOnFault). A caller that can meet
// such a file guards its reads and passes what it recovers to FaultError,
// which names the table the address belongs to, as sst.FaultError does for
// the block format.

// mappedReaders lists the Readers whose data is a live mapping, so that a
// fault address can be traced to its file. Tables are mapped and unmapped
// rarely (open and close), so a mutex and a map are enough.
var mappedReaders struct {
	sync.Mutex
	m map[*Reader]struct{}
}

func registerMapping(r *Reader) {
	mappedReaders.Lock()
	if mappedReaders.m == nil {
		mappedReaders.m = make(map[*Reader]struct{})
	}
	mappedReaders.m[r] = struct{}{}
	mappedReaders.Unlock()
}

func unregisterMapping(r *Reader) {
	mappedReaders.Lock()
	delete(mappedReaders.m, r)
	mappedReaders.Unlock()
}

// faultAddr is implemented by the runtime's error for a memory fault under
// SetPanicOnFault.
type faultAddr interface {
	error
	Addr() uintptr
}

// FaultError returns the error for p, a value recovered from a panic: for a
// memory fault at an address inside a mapped table, an error wrapping
// ErrCorruption that names the table and the offset; for a fault elsewhere
// or any other panic, nil (the caller re-panics with p).
func FaultError(p any) error {
	f, ok := p.(faultAddr)
	if !ok {
		return nil
	}
	addr := f.Addr()
	mappedReaders.Lock()
	defer mappedReaders.Unlock()
	for r := range mappedReaders.m {
		start := uintptr(unsafe.Pointer(unsafe.SliceData(r.data)))
		if len(r.data) > 0 && addr >= start && addr-start < uintptr(len(r.data)) {
			return corruptf(r.name, uint64(addr-start), "memory-mapped read failed (the file shrank or changed after it was opened): %v", f)
		}
	}
	return nil
}

// HasMagic reports whether tail, the last MagicLen bytes of a file (or
// more), ends with this format's magic number. It tells a table of this
// format from one of another format sharing a directory, before either
// opens it.
func HasMagic(tail []byte) bool {
	return len(tail) >= MagicLen && binary.LittleEndian.Uint64(tail[len(tail)-MagicLen:]) == tableMagic
}

// MagicLen is the length of the magic number that ends every table.
const MagicLen = 8

// CheckFooter reads the footer of a table of size bytes with one read and
// checks it as Open does: the magic number, the footer checksum, the
// format version, and that the meta section it points to ends at the
// footer. It lets a caller that only needs to know a table is whole check
// it without mapping it. The error wraps ErrCorruption and names the file
// (name) and the offset.
func CheckFooter(f io.ReaderAt, size int64, name string) error {
	if size < footerLen {
		return corruptf(name, 0, "file is %d bytes, shorter than the %d-byte footer", size, footerLen)
	}
	var b [footerLen]byte
	off := size - footerLen
	if _, err := f.ReadAt(b[:], off); err != nil {
		return fmt.Errorf("rtable: read %s at offset %d: %w", name, off, err)
	}
	_, err := decodeFooterAt(b[:], uint64(off), name)
	return err
}
