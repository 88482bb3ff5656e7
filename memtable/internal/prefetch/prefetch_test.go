package prefetch

import (
	"testing"
	"unsafe"
)

// TestLine prefetches valid memory and nil, which is not mapped: a
// prefetch must never fault.
func TestLine(t *testing.T) {
	b := make([]byte, 256)
	for i := 0; i < len(b); i += 64 {
		Line(unsafe.Pointer(&b[i]))
	}
	Line(nil)
}
