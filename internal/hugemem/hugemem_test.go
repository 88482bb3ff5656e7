package hugemem

import (
	"os"
	"strings"
	"testing"
	"unsafe"
)

func TestMapIsZeroedAlignedAndWritable(t *testing.T) {
	for _, n := range []int{1, 4096, HugePageSize - 1, HugePageSize, 3*HugePageSize + 5} {
		r, err := Map(n)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Bytes) != n {
			t.Fatalf("Map(%d): len %d", n, len(r.Bytes))
		}
		if r.mapping != nil && uintptr(unsafe.Pointer(&r.Bytes[0]))%HugePageSize != 0 {
			t.Fatalf("Map(%d) not aligned to a huge page", n)
		}
		for i := 0; i < n; i += 4093 {
			if r.Bytes[i] != 0 {
				t.Fatalf("Map(%d): byte %d is %d", n, i, r.Bytes[i])
			}
			r.Bytes[i] = byte(i)
		}
		r.Bytes[n-1] = 0xff
		if err := r.Free(); err != nil {
			t.Fatal(err)
		}
		if err := r.Free(); err != nil {
			t.Fatalf("second Free: %v", err)
		}
	}
}

func TestMapRejectsBadSizes(t *testing.T) {
	for _, n := range []int{0, -1} {
		if _, err := Map(n); err == nil {
			t.Fatalf("Map(%d) gave no error", n)
		}
	}
}

// TestHugePagesWhenOffered checks the advice takes effect where the kernel
// runs THP in "madvise" or "always" mode: after touching a big region the
// process has anonymous huge pages.
func TestHugePagesWhenOffered(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !(strings.Contains(string(mode), "[madvise]") || strings.Contains(string(mode), "[always]")) {
		t.Skip("transparent huge pages are not offered here")
	}
	r, err := Map(16 * HugePageSize)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Free()
	for i := 0; i < len(r.Bytes); i += 4096 {
		r.Bytes[i] = 1
	}
	smaps, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Skip("no smaps_rollup")
	}
	for _, line := range strings.Split(string(smaps), "\n") {
		if strings.HasPrefix(line, "AnonHugePages:") {
			f := strings.Fields(line)
			if len(f) >= 2 && f[1] != "0" {
				return
			}
			t.Skipf("kernel gave no huge pages (fragmented memory?): %s", line)
		}
	}
	t.Skip("smaps_rollup has no AnonHugePages line")
}

// BenchmarkRandomReadChain reads a dependent random chain over 512 MiB,
// from a huge-page region and from a Go heap slice, so the package doc's
// figures can be checked:
//
//	go test -run XXX -bench RandomReadChain ./internal/hugemem/
func BenchmarkRandomReadChain(b *testing.B) {
	const size = 512 << 20
	run := func(b *testing.B, mem []byte) {
		for i := 0; i < len(mem); i += 64 {
			mem[i] = 1 // fault every page in before timing; every line reads 1
		}
		lines := uint64(len(mem) / 64)
		x, sum := uint64(88172645463325252), uint64(0)
		b.ResetTimer()
		for range b.N {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			sum += uint64(mem[((x+sum)%lines)*64]) // depends on the previous read
		}
		if sum == 0 {
			b.Fatal("no page was read")
		}
	}
	b.Run("hugemem", func(b *testing.B) {
		r, err := Map(size)
		if err != nil {
			b.Fatal(err)
		}
		defer r.Free()
		run(b, r.Bytes)
	})
	b.Run("goheap", func(b *testing.B) { run(b, make([]byte, size)) })
}
