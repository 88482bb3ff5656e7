package prefetch

import (
	"testing"
	"unsafe"
)

// TestNeverFaults prefetches valid memory, spans that run past the end of
// their allocation or wrap around the address space, and nil, which is
// not mapped: a prefetch must never fault.
func TestNeverFaults(t *testing.T) {
	b := make([]byte, 256)
	for i := 0; i < len(b); i += 32 {
		p := unsafe.Pointer(&b[i])
		Line(p)
		for _, n := range []uintptr{0, 1, 63, 64, 65, 200, 1 << 20, ^uintptr(0)} {
			Span(p, n)
		}
	}
	Line(nil)
	Span(nil, 0)
	Span(nil, 1<<30)
}
