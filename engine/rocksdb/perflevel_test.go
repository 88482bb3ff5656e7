//go:build rocksdb

package rocksdb

import (
	"fmt"
	"runtime"
	"testing"
)

// TestStartThreadSetsPerfLevel: with db_bench's default --perf_level (1,
// disabled) a thread's reads leave the perf context untouched; at 2
// (counting) they count key comparisons.
func TestStartThreadSetsPerfLevel(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	db := openWith(t, testOptions())(t.TempDir())
	defer db.Close()
	for i := range 1000 {
		if err := db.Put([]byte(fmt.Sprintf("key%06d", i)), []byte("v"), nil); err != nil {
			t.Fatal(err)
		}
	}
	reads := func() uint64 {
		resetThreadPerfContext()
		for i := range 1000 {
			if _, err := db.Get([]byte(fmt.Sprintf("key%06d", i)), func([]byte) {}); err != nil {
				t.Fatal(err)
			}
		}
		return threadKeyComparisons()
	}
	ts := db.(*DB)
	ts.StartThread(1)
	if n := reads(); n != 0 {
		t.Fatalf("perf level 1: %d key comparisons counted, want none", n)
	}
	ts.StartThread(2)
	if n := reads(); n == 0 {
		t.Fatal("perf level 2: no key comparisons counted")
	}
	ts.StartThread(1)
}
