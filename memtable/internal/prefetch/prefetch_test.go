package prefetch

import (
	"testing"
	"unsafe"
)

// TestLine prefetches valid memory, the last line of an allocation (so
// that Lines3 names lines past its end) and nil, which is not mapped: a
// prefetch must never fault.
func TestLine(t *testing.T) {
	b := make([]byte, 256)
	for i := 0; i < len(b); i += 64 {
		Line(unsafe.Pointer(&b[i]))
		Lines3(unsafe.Pointer(&b[i]))
	}
	Line(nil)
	Lines3(nil)
}
