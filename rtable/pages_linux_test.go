package rtable

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"unsafe"

	"github.com/godbbench/godbbench/internal/base"
)

// residentPages counts the pages of b (page aligned) that are in memory.
func residentPages(t *testing.T, b []byte) int {
	page := os.Getpagesize()
	vec := make([]byte, (len(b)+page-1)/page)
	if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)), uintptr(unsafe.Pointer(unsafe.SliceData(vec)))); e != 0 {
		t.Fatalf("mincore: %v", e)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}

// TestKeyScanLeavesValuePagesAlone drops a table's pages from the page
// cache, opens it and scans keys, trailers included, and checks with
// mincore that no value page was read; then that a scan with values reads
// them (so the check can see pages at all).
func TestKeyScanLeavesValuePagesAlone(t *testing.T) {
	var es []entry
	value := make([]byte, 100)
	for i := range 40_000 {
		value[0] = byte(i)
		es = append(es, entry{dbBenchKey(uint64(i), 16), uint64(i % 3), base.KindSet, append([]byte(nil), value...)})
	}
	b := buildBytes(t, es, WriterOptions{BloomBitsPerKey: 10})
	path := filepath.Join(t.TempDir(), "v.rtable")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	rf, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(rf, int64(len(b)), ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// A fault reads the file around the faulting page (read_ahead_kb: 8
	// MiB on the machine this was written on), which would bring value
	// pages in with key pages whatever the reader touches: turn that off
	// for the mapping, then unmap and drop the pages Open brought in.
	for _, advice := range []int{syscall.MADV_RANDOM, syscall.MADV_DONTNEED} {
		if err := syscall.Madvise(r.data, advice); err != nil {
			t.Skipf("madvise: %v", err)
		}
	}
	const fadvDontNeed = 4
	if _, _, e := syscall.Syscall6(syscall.SYS_FADVISE64, rf.Fd(), 0, 0, fadvDontNeed, 0, 0); e != 0 {
		t.Skipf("fadvise: %v", e)
	}
	page := os.Getpagesize()
	far := int(r.m.valueAreaBytes)
	far -= far % page // the last value page may hold the keys section's start
	if n := residentPages(t, r.data[:far]); n > 0 {
		t.Skipf("%d value pages resident after dropping the cache: no way to observe reads here", n)
	}
	it := r.NewIter()
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n += len(it.Key()) + int(it.Seq()) + int(it.Kind())
	}
	if n == 0 {
		t.Fatal("empty scan")
	}
	if got := residentPages(t, r.data[:far]); got != 0 {
		t.Fatalf("a key-only scan brought %d of %d value pages into memory", got, far/page)
	}
	for ok := it.First(); ok; ok = it.Next() {
		if _, err := it.Value(); err != nil {
			t.Fatal(err)
		}
	}
	if got := residentPages(t, r.data[:far]); got < far/page/2 {
		t.Fatalf("a scan with values left only %d of %d value pages in memory: mincore sees nothing", got, far/page)
	}
}
