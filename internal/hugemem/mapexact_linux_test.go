//go:build linux && !race

package hugemem

import (
	"testing"
	"unsafe"

	"github.com/godbbench/godbbench/internal/codepages"
)

// TestMapExactKeepsTheTailOnSmallPages touches only the partly used last
// huge page of a region: from MapExact it stays a few 4 KiB pages, where
// Map (with THP offered) makes it a whole resident huge page.
func TestMapExactKeepsTheTailOnSmallPages(t *testing.T) {
	const n = HugePageSize + 64<<10
	r, err := MapExact(n)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Free()
	tail := r.Bytes[HugePageSize:]
	for i := 0; i < len(tail); i += 4096 {
		tail[i] = 1
	}
	res, ok, err := codepages.ResidentAt(uintptr(unsafe.Pointer(&tail[0])))
	if err != nil || !ok {
		t.Skipf("no smaps entry for the region: %v", err)
	}
	if res.HugePages != 0 || res.Bytes > 64<<10 {
		t.Fatalf("tail of a MapExact region: Rss %d, AnonHugePages %d bytes; want at most the 64 KiB touched", res.Bytes, res.HugePages)
	}
	for i := 0; i < HugePageSize; i += 4096 {
		r.Bytes[i] = 1
	}
	for i := range r.Bytes {
		if want := byte(0); i%4096 == 0 {
			want = 1
			if r.Bytes[i] != want {
				t.Fatalf("byte %d: %d", i, r.Bytes[i])
			}
		} else if r.Bytes[i] != want {
			t.Fatalf("byte %d: %d, want zero", i, r.Bytes[i])
		}
	}
}
