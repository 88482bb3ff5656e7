//go:build linux && !race

package hugemem

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
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
	rss, huge, ok := residentAt(t, uintptr(unsafe.Pointer(&tail[0])))
	if !ok {
		t.Skip("no smaps entry for the region")
	}
	if huge != 0 || rss > 64 {
		t.Fatalf("tail of a MapExact region: Rss %d kB, AnonHugePages %d kB; want at most the 64 kB touched", rss, huge)
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

// residentAt returns the Rss and AnonHugePages, in kB, of the mapping that
// holds addr, from /proc/self/smaps.
func residentAt(t *testing.T, addr uintptr) (rss, huge int, found bool) {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if lo, hi, isRange := strings.Cut(fields[0], "-"); isRange && !strings.HasSuffix(fields[0], ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				if found && in {
					return rss, huge, true
				}
				in = uint64(addr) >= a && uint64(addr) < b
				found = found || in
				continue
			}
		}
		if !in || len(fields) < 2 {
			continue
		}
		v, _ := strconv.Atoi(fields[1])
		switch fields[0] {
		case "Rss:":
			rss = v
		case "AnonHugePages:":
			huge = v
		}
	}
	return rss, huge, found
}
