//go:build !linux

package hugemem

import "fmt"

// Map returns a zeroed region of at least n bytes from the Go heap: other
// systems get neither huge pages nor off-heap memory.
func Map(n int) (*Region, error) {
	if n <= 0 {
		return nil, fmt.Errorf("hugemem: bad size %d", n)
	}
	return &Region{Bytes: make([]byte, n)}, nil
}

// Free drops the region's memory for the collector.
func (r *Region) Free() error {
	if r != nil {
		r.Bytes = nil
	}
	return nil
}
